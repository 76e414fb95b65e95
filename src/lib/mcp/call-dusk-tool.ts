import {TapirError} from '../errors.js'
import {EXIT} from '../output/exit-codes.js'
import {hintsInMcpWords} from '../output/mcp-words.js'
import {defaultFor, inputFromArguments} from '../verbs/input.js'
import type {Input, Result, VerbContext} from '../verbs/types.js'
import {contentResult, errorResult, runVerb, textResult, type ToolResult} from './call-tool.js'
import type {DuskTool} from './dusk-catalogue.js'
import {imageContent} from './image-content.js'

/** A key under its new name, if the table renames it; a key such as `__proto__` or
 *  `constructor` is the table's own property only when it says so. */
const renamedKey = (table: Readonly<Record<string, string>>, key: string): string =>
  (Object.hasOwn(table, key) ? table[key] : undefined) ?? key

/** The verb's input for a dusk tool's checked arguments: each under the verb's name for it, and
 *  every parameter the tool lacks as the CLI would send it (a plain `tapir:<verb>` with those
 *  flags), so a dusk_* call asks the app for nothing a tapir:* command would not. */
export function verbInputOf(tool: DuskTool, input: Input): Input {
  const named = new Map(Object.entries(input).map(([name, value]) => [renamedKey(tool.onVerb, name), value]))
  const verbInput: Input = {}
  for (const param of tool.verb.params) {
    const value = named.has(param.name) ? named.get(param.name) : param.local ? undefined : defaultFor(param, 'cli')
    if (value !== undefined) verbInput[param.name] = value
  }
  return verbInput
}

/** The verb's result as 0.0.1 shapes it: its keys under 0.0.1's names, and the arguments 0.0.1
 *  echoes where the result lacks them. */
export function duskAnswer(tool: DuskTool, result: Result, input: Input): Record<string, unknown> {
  const echoed = Object.fromEntries(tool.echoed.filter((name) => input[name] !== undefined).map((name) => [name, input[name]]))
  const renamed = Object.fromEntries(Object.entries(result).map(([key, value]) => [renamedKey(tool.renamed, key), value]))
  const answer = {...echoed, ...renamed}
  return tool.reshape ? tool.reshape(answer) : answer
}

/** Runs one dusk_* tool: its arguments checked against 0.0.1's schema, then the tapir verb it
 *  stands for, through the same code as the tapir_* tool and the CLI. */
export function callDuskTool(tool: DuskTool, args: Record<string, unknown> | undefined, context: VerbContext): Promise<ToolResult> {
  let duskInput: Input = {}
  return runVerb(
    tool.verb,
    () => {
      duskInput = inputFromArguments(tool, args)
      tool.validate?.(duskInput)
      return verbInputOf(tool, duskInput)
    },
    context,
    (result) => {
      const failure = tool.failure?.(result, duskInput)
      if (failure !== undefined) return errorResult(new TapirError(failure, 'app', {result}), EXIT.failed)
      const isError = tool.verb.mcpIsError?.(result) ?? false
      if (tool.text) return textResult(tool.text(result), isError)
      const answer = duskAnswer(tool, hintsInMcpWords(result), duskInput)
      const image = tool.verb.mcpImage
      return image
        ? contentResult(imageContent(answer, tool.renamed[image] ?? image), isError)
        : textResult(JSON.stringify(answer), isError)
    },
    tool.tool,
  )
}
