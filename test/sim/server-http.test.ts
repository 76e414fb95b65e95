import {describe, expect, it} from 'vitest'
import {httpGet, RawClient, refusedUpgrade, simPerTest} from './server-helpers.js'

const t = simPerTest()
const open = t.open

describe('the raw VM front door', () => {
  it('advertises http and ws URIs with a 12-character base64url token ending in =', async () => {
    const sim = await t.start()
    expect(sim.token).toMatch(/^[A-Za-z0-9_-]{11}=$/)
    expect(sim.httpUri).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/${sim.token}/$`))
    expect(sim.wsUri).toBe(`${sim.httpUri.replace('http:', 'ws:')}ws`)
    expect(sim.ddsHttpUri).toBeUndefined()
  })

  it('redirects /TOKEN to /TOKEN/, refuses a bad token, a foreign origin and non-GET methods', async () => {
    const sim = await t.start()
    const base = sim.httpUri.slice(0, -sim.token.length - 2)
    expect(await httpGet(`${base}/${sim.token}`)).toMatchObject({status: 302, location: `/${sim.token}/`})
    expect((await httpGet(sim.httpUri)).status).toBe(200)
    expect(await httpGet(`${base}/AAAAAAAAAAA=/`)).toMatchObject({status: 403, body: 'missing or invalid authentication code'})
    expect(await httpGet(`${base}/`)).toMatchObject({status: 403, body: 'missing or invalid authentication code'})
    expect(await httpGet(sim.httpUri, {Origin: 'http://evil.example'})).toMatchObject({status: 403, body: 'forbidden origin'})
    expect((await httpGet(sim.httpUri, {Origin: 'http://localhost:1234'})).status).toBe(200)
    expect(await httpGet(sim.httpUri, {}, 'POST')).toMatchObject({status: 405, body: 'method not allowed'})
  })

  it('upgrades only at /TOKEN/ws', async () => {
    const sim = await t.start()
    const client = await open(sim.wsUri)
    expect((await client.call('getVersion')).result).toMatchObject({type: 'Version', major: 4})
    expect(await refusedUpgrade(sim.wsUri.replace(/ws$/, ''))).toBe(200)
    expect(await refusedUpgrade(sim.wsUri.replace(sim.token, 'AAAAAAAAAAA='))).toBe(403)
    expect(await refusedUpgrade(sim.wsUri, {origin: 'http://evil.example'})).toBe(403)
    expect(sim.violations.some((text) => text.includes('Origin'))).toBe(true)
  })

  it('selects implicit-redirect whatever subprotocol is offered, and notes the offer', async () => {
    const sim = await t.start()
    const client = await open(sim.wsUri, {protocols: ['implicit-redirect']})
    expect(client.socket.protocol).toBe('implicit-redirect')
    await expect(RawClient.open(sim.wsUri, {protocols: ['graphql-ws']})).rejects.toThrow(/subprotocol/i)
    expect(sim.violations.filter((text) => text.includes('subprotocols'))).toHaveLength(2)
  })
})

describe('dds mode', () => {
  it('redirects the raw VM /ws upgrade to the DDS http root, which a followRedirects client follows', async () => {
    const sim = await t.start({mode: 'dds'})
    expect(sim.ddsHttpUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]{11}=\/$/)
    expect(sim.ddsHttpUri).not.toContain(sim.token)
    expect(await refusedUpgrade(sim.wsUri)).toBe(302)
    const client = await open(sim.wsUri, {followRedirects: true})
    expect(client.socket.url).toBe(sim.ddsHttpUri!.replace('http:', 'ws:'))
    expect((await client.call('getVersion')).result).toMatchObject({type: 'Version'})
    expect((await client.call('getDartDevelopmentServiceVersion')).result).toMatchObject({type: 'Version', major: 1})
  })

  it('accepts a WebSocket at any path under the DDS token, and refuses a wrong token', async () => {
    const sim = await t.start({mode: 'dds'})
    const dds = sim.ddsHttpUri!.replace('http:', 'ws:')
    for (const path of ['', 'ws', 'anything/else']) {
      const client = await open(`${dds}${path}`)
      expect((await client.call('getVM')).result.type).toBe('VM')
    }
    expect(await refusedUpgrade(dds.replace(/\/[^/]+=\/$/, '/AAAAAAAAAAA=/ws'))).toBe(403)
  })
})
