/** The tool catalogues `mcp:serve` can serve: tapir's own, or that of Dusk 0.0.1, tapir's
 *  predecessor, for agents whose prompts and configs still call dusk_* tools. */
export const CATALOGUES = ['tapir', 'dusk'] as const
export type Catalogue = (typeof CATALOGUES)[number]

export const CATALOGUE_DESCRIPTION =
  'Which tools to serve: tapir (the tapir_* tools) or dusk (the 31 dusk_* tools of Dusk 0.0.1, for agents set up for the Dusk MCP server).'
