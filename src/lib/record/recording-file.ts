import {errorCode, TapirError} from '../errors.js'
import {checkOutputFile, type OutputKind} from '../output-file.js'
import {readBoundedText} from '../read-bounded.js'
import {fileError, writeAtomic} from '../write-atomic.js'
import {comment} from './render.js'
import type {RecordingState} from './state.js'

/** The first line of every recording: what lets tapir replace its own earlier one, and nothing else. */
export const RECORDING_HEAD = '# tapir recording'

export const RECORDING_OUTPUT: OutputKind = {
  what: 'a tapir recording',
  headBytes: RECORDING_HEAD.length,
  isOwn: (head) => head.toString('utf8') === RECORDING_HEAD,
}

/** A recording grows a few lines a step; one this large is not being made by a person or an agent. */
const MAX_RECORDING_BYTES = 4 * 1024 * 1024

/** The header: when and with what it was recorded, and what replay needs. */
export function headerLines(state: RecordingState): string[] {
  return [
    `${RECORDING_HEAD}: replay with \`tapir tapir:run --file <this file>\``,
    comment(`recorded ${state.startedAt} with tapir ${state.version}`),
    comment(`app package: ${state.appPackage}`),
    state.secrets.length > 0
      ? comment(`replay needs: ${state.secrets.join(', ')} (read from the environment; never written here)`)
      : comment('replay needs no environment variables'),
  ]
}

/** Starts the recording file afresh: a new file, or tapir's own earlier recording replaced; a
 *  symbolic link, a folder or anyone else's file is refused (exit 1). */
export function startRecordingFile(state: RecordingState): void {
  checkOutputFile(state.file, RECORDING_OUTPUT)
  writeAtomic(state.file, `${headerLines(state).join('\n')}\n\n`, {refuseLinks: true, mode: 0o644})
}

/** Adds step lines at the end, the header brought up to date: the whole file is written anew
 *  through the safe writer (temp file, then rename), so a crash leaves the old file or the new
 *  one, never half a step; and only while the file is still tapir's own recording. */
export function appendToRecording(state: RecordingState, lines: readonly string[]): void {
  checkOutputFile(state.file, RECORDING_OUTPUT)
  let text: string
  try {
    text = readBoundedText(state.file, MAX_RECORDING_BYTES, {followLinks: false})
  } catch (error) {
    if (errorCode(error) === 'ENOENT')
      throw new TapirError(`The recording ${state.file} is gone; start a new one (tapir record start <file>).`, 'local')
    throw fileError('read the recording', state.file, error)
  }
  const blank = text.indexOf('\n\n')
  const body = blank < 0 ? '' : text.slice(blank + 2)
  writeAtomic(state.file, `${headerLines(state).join('\n')}\n\n${body}${lines.map((line) => `${line}\n`).join('')}`, {refuseLinks: true})
}
