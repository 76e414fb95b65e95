import type {Param, ToolShape} from '../verbs/types.js'

type JsonSchema = Record<string, unknown>

function propertyFor(param: Param): JsonSchema {
  const schema: JsonSchema = param.type === 'string[]' ? {type: 'array', items: {type: 'string'}} : {type: param.type}
  schema.description = param.description
  if (param.options) schema.enum = [...param.options]
  if (param.default !== undefined) schema.default = param.default
  if (param.minimum !== undefined) schema.minimum = param.minimum
  if (param.maximum !== undefined) schema.maximum = param.maximum
  return schema
}

/** The JSON Schema of a tool's arguments, from the same params the CLI flags come from. */
export function inputSchema(params: readonly Param[]): JsonSchema {
  const visible = params.filter((param) => !param.cliOnly)
  const required = visible.filter((param) => param.required).map((param) => param.name)
  return {
    type: 'object',
    properties: Object.fromEntries(visible.map((param) => [param.name, propertyFor(param)])),
    ...(required.length > 0 ? {required} : {}),
    additionalProperties: false,
  }
}

export interface McpTool {
  name: string
  description: string
  inputSchema: JsonSchema
  annotations: {readOnlyHint: boolean; destructiveHint: boolean; openWorldHint: boolean}
}

/** The MCP tool of a catalogue entry with a tool name; its hints follow from its kind. */
export function toolFor(tool: ToolShape & {tool: string}): McpTool {
  return {
    name: tool.tool,
    description: tool.summary,
    inputSchema: inputSchema(tool.params),
    annotations: {readOnlyHint: tool.kind === 'read', destructiveHint: tool.kind === 'destructive', openWorldHint: false},
  }
}
