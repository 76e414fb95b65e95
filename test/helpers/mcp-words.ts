/** What only the CLI says: a flag (`--ref`) or a `tapir:` command. MCP texts name parameters
 *  and tools (`ref`, `tapir_snap`) instead. */
export const CLI_WORDS = /--[a-z]|tapir:/i
