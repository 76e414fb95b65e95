import type {Param, ToolShape, VerbKind} from '../verbs/types.js'

type JsonSchema = Record<string, unknown>

function propertyFor(param: Param): JsonSchema {
  const list = param.type === 'string[]'
  const choices = param.options ? {enum: [...param.options]} : {}
  const length = param.maxLength === undefined ? {} : {maxLength: param.maxLength}
  const schema: JsonSchema = list
    ? {type: 'array', items: {type: 'string', ...choices, ...length}, ...(param.maxItems === undefined ? {} : {maxItems: param.maxItems})}
    : {type: param.type, ...choices, ...length}
  if (param.brief) schema.description = param.brief
  if (param.default !== undefined) schema.default = param.default
  if (param.minimum !== undefined) schema.minimum = param.minimum
  if (param.maximum !== undefined) schema.maximum = param.maximum
  return schema
}

/** The JSON Schema of a tool's arguments, from the same params the CLI flags come from. It
 *  leaves out `additionalProperties: false`: the server refuses an unknown argument by name
 *  (-32602, server.ts), and every agent would read those bytes before its first call. */
export function inputSchema(params: readonly Param[]): JsonSchema {
  const visible = params.filter((param) => !param.cliOnly)
  const required = visible.filter((param) => param.required).map((param) => param.name)
  return {
    type: 'object',
    properties: Object.fromEntries(visible.map((param) => [param.name, propertyFor(param)])),
    ...(required.length > 0 ? {required} : {}),
  }
}

type Annotations = {readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint: false}

/** What a client may assume of a tool of each kind. Every tool acts on the one app of the
 *  session, never on the world beyond it. A hint at its MCP default is left out (readOnlyHint
 *  false, destructiveHint true, idempotentHint false; the last two mean nothing on a read-only
 *  tool: ToolAnnotationsSchema in the SDK's types), so every agent reads fewer bytes. */
const ANNOTATIONS: Readonly<Record<VerbKind, Annotations>> = {
  read: {readOnlyHint: true, openWorldHint: false},
  set: {destructiveHint: false, idempotentHint: true, openWorldHint: false},
  action: {destructiveHint: false, openWorldHint: false},
  destructive: {openWorldHint: false},
}

/** A tool's hints with MCP's defaults filled in, as a client reads them. */
export function effectiveHints(annotations: Annotations): Required<Annotations> {
  const readOnly = annotations.readOnlyHint ?? false
  return {
    readOnlyHint: readOnly,
    destructiveHint: readOnly ? false : (annotations.destructiveHint ?? true),
    idempotentHint: readOnly ? true : (annotations.idempotentHint ?? false),
    openWorldHint: annotations.openWorldHint,
  }
}

export interface McpTool {
  name: string
  title: string
  description: string
  inputSchema: JsonSchema
  annotations: Annotations
}

/** The MCP tool of a catalogue entry with a tool name; its hints follow from its kind. */
export function toolFor(tool: ToolShape & {tool: string}): McpTool {
  return {
    name: tool.tool,
    title: tool.title,
    description: tool.summary,
    inputSchema: inputSchema(tool.params),
    annotations: ANNOTATIONS[tool.kind],
  }
}
