import {relative, resolve} from 'node:path'
import {defineCommand} from '../lib/commands/types.js'
import {EXIT} from '../lib/output/exit-codes.js'
import type {Outcome} from '../lib/output/outcome.js'
import {summaryLine} from '../lib/suite/list.js'
import {carryTraces} from '../lib/suite/merge-traces.js'
import {mergeReports, readShardReports} from '../lib/suite/merge.js'
import {readMergedEvidence} from '../lib/suite/read-evidence.js'
import {checkReports, writeReports, type Reporter} from '../lib/suite/write-reports.js'

const MERGED: readonly Reporter[] = ['junit', 'html', 'json']

export const MERGE_REPORTS = defineCommand({
  id: 'merge-reports',
  summary: "Merge the report folders of tapir test's shards into one JUnit, HTML and JSON report.",
  description:
    'Each folder must hold the report.json a shard wrote (tapir test --shard=i/n). The merged junit.xml, report.html and report.json go to --output-dir, with a copy of each trace a shard report links (traces/). Exits 0 when every merged test passed, 1 when one failed or a folder holds no report.',
  examples: ['<%= config.bin %> <%= command.id %> shard-1 shard-2 shard-3 shard-4 --output-dir=tapir-report'],
  params: [{name: 'output-dir', type: 'string', description: 'Folder the merged reports are written to.', default: 'tapir-report'}],
  rest: {name: 'folders', description: 'The report folders of the shards.'},
  globals: 'all',
  session: 'none',
  async run(flags): Promise<Outcome> {
    const cwd = process.cwd()
    const {folders} = flags
    const outputDir = resolve(cwd, flags['output-dir'])
    checkReports(MERGED, outputDir)
    const shards = readShardReports(folders, cwd)
    const shardFolders = shards.map(({folder}) => folder)
    const {report, failures: traceFailures} = carryTraces(mergeReports(shards, outputDir), outputDir, shardFolders)
    const {written, failures: reportFailures} = writeReports(report, MERGED, outputDir, cwd, (path) =>
      readMergedEvidence(outputDir, shardFolders, path),
    )
    const shown = relative(cwd, outputDir) || '.'
    const failed = report.tests.some((test) => test.status === 'failed')
    const failures = [...traceFailures, ...reportFailures]
    return {
      stdout: [`merged ${folders.length} reports`, summaryLine(report), ...written.map((file) => `report: ${shown}/${file}`)].join('\n'),
      stderr: failures.map((failure) => `✗ ${failure}`),
      exitCode: failed || failures.length > 0 ? EXIT.failed : EXIT.ok,
    }
  },
})
