/** Writes the report pages through the safe output writer. Verbs load this module only when a
 *  report is asked for, so no other verb pays for it at start-up. */
import {REPORT_OUTPUT, writeOutputFile} from '../../output-file.js'
import type {RunFile} from '../run-file.js'
import {campaignIndexHtml, type IndexInput} from './campaign-index.js'
import {compareReportHtml, type CompareReportInput} from './compare-report.js'
import {runView} from './run-data.js'
import {runReportHtml} from './run-report.js'

export function writeRunReport(path: string, run: RunFile, runPath: string): void {
  writeOutputFile(path, runReportHtml(runView(run), runPath), REPORT_OUTPUT)
}

export function writeCompareReport(path: string, input: CompareReportInput): void {
  writeOutputFile(path, compareReportHtml(input), REPORT_OUTPUT)
}

export function writeCampaignIndex(path: string, input: IndexInput): void {
  writeOutputFile(path, campaignIndexHtml(input), REPORT_OUTPUT)
}
