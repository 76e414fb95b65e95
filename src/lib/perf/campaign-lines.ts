import type {CampaignOutcome} from './campaign.js'

/** The result lines: `  <name>  ok`, `  <name>  ok (attempt N, see <err>)`, `  <name>  FAILED (see <err>)`,
 *  then where the campaign's index page is. */
export function campaignLines({results, index}: CampaignOutcome): string[] {
  const width = Math.max(...results.map((result) => result.scenario.length))
  const lines = results.map((result) => {
    const name = `  ${result.scenario.padEnd(width)}  `
    if (result.status === 'failed') return `${name}FAILED (see ${result.errFile})`
    return result.attempts > 1 ? `${name}ok (attempt ${result.attempts}, see ${result.errFile})` : `${name}ok`
  })
  return [...lines, `report: ${index}`]
}
