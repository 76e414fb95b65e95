import {TapirError, messageOf} from '../errors.js'
import {readBoundedText} from '../read-bounded.js'
import {list, number, object, readAs, string} from '../shape.js'

const reportShape = object({tests: list(object({file: string, durationMs: number}))})

/** `--durations=<report.json>`: how long each test took in a last report, by file. */
export function readDurations(path: string): Map<string, number> {
  let text: string
  try {
    text = readBoundedText(path)
  } catch (error) {
    throw new TapirError(`Cannot read --durations=${path}: ${messageOf(error)}`, 'local')
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    throw new TapirError(`--durations=${path} is not JSON; give the report.json of a last tapir test run.`, 'local')
  }
  const read = readAs(reportShape, json, 'the report')
  if ('problem' in read) throw new TapirError(`--durations=${path} is not a tapir test report: ${read.problem}.`, 'local')
  return new Map(read.value.tests.filter((test) => test.durationMs >= 0).map((test) => [test.file, test.durationMs]))
}
