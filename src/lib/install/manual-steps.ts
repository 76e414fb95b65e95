import {TapirError} from '../errors.js'
import {ENSURE_INITIALIZED, FOUNDATION_URI, GUARD_LINES, TAPIR_CONSTRAINT, TAPIR_URI, importLine} from './markers.js'

/** What a main.dart lacks, as far as tapir could read it. */
export interface MissingParts {
  foundationImport: boolean
  tapirImport: boolean
  ensureInitialized: boolean
}

/** A file tapir will not patch: why, and the lines to add by hand. Nothing is written. */
export class ManualSteps extends TapirError {
  constructor(
    readonly file: string,
    readonly reason: string,
    readonly missing: MissingParts,
    /** Whether pubspec.yaml still lacks tapir (the lines then say to add it too). */
    pubspecMissing = false,
  ) {
    super(manualText(file, reason, missing, pubspecMissing), 'local', {file, reason})
  }

  /** The same refusal, knowing whether pubspec.yaml lacks tapir too. */
  withPubspec(pubspecMissing: boolean): ManualSteps {
    return new ManualSteps(this.file, this.reason, this.missing, pubspecMissing)
  }

  override get multiline(): boolean {
    return true
  }
}

function manualText(file: string, reason: string, missing: MissingParts, pubspecMissing: boolean): string {
  const imports = [
    missing.foundationImport ? importLine(FOUNDATION_URI) : undefined,
    missing.tapirImport ? importLine(TAPIR_URI) : undefined,
  ].filter((line) => line !== undefined)
  const lines = [`Cannot patch ${file} safely: ${reason}. Nothing was written.`, 'Add these lines by hand:']
  if (imports.length > 0) lines.push(`  at the top of ${file}:`, ...imports.map((line) => `    ${line}`))
  lines.push(
    '  in main(), before runApp(:',
    ...(missing.ensureInitialized ? [`    ${ENSURE_INITIALIZED}`] : []),
    ...GUARD_LINES.map((line) => `    ${line}`),
  )
  if (pubspecMissing) lines.push('  in pubspec.yaml, under dependencies:', `    tapir: ${TAPIR_CONSTRAINT}`)
  return lines.join('\n')
}
