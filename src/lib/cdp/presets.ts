import {CdpError} from './errors.js'

export interface Viewport {
  width: number
  height: number
  dpr: number
  mobile: boolean
  touch: boolean
}

export interface Preset extends Viewport {
  name: string
  userAgent: string
}

const IOS =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/19.2 Mobile/15E148 Safari/605.1.15'
const IPAD =
  'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/19.2 Mobile/15E148 Safari/605.1.15'
const android = (version: number, model: string): string =>
  `Mozilla/5.0 (Linux; Android ${version}; ${model}) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.6723.92 Mobile Safari/537.36`
const DESKTOP = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.6723.92 Safari/537.36'

const phone = (name: string, width: number, height: number, dpr: number, userAgent: string): Preset => ({
  name,
  width,
  height,
  dpr,
  mobile: true,
  touch: true,
  userAgent,
})
const desktop = (name: string, width: number, height: number): Preset => ({
  name,
  width,
  height,
  dpr: 1,
  mobile: false,
  touch: false,
  userAgent: DESKTOP,
})

export const PRESETS: readonly Preset[] = [
  phone('iphone-x', 375, 812, 3, IOS),
  phone('iphone-13', 390, 844, 3, IOS),
  phone('iphone-15-pro', 393, 852, 3, IOS),
  phone('pixel-5', 393, 851, 2.75, android(13, 'Pixel 5')),
  phone('pixel-8', 412, 915, 2.625, android(14, 'Pixel 8')),
  phone('ipad-pro-12.9', 1024, 1366, 2, IPAD),
  desktop('desktop-1440', 1440, 900),
  desktop('desktop-1920', 1920, 1080),
]

/** The window `device --reset` restores (the desktop-1440 preset's size). */
export const DEFAULT_WINDOW = {width: 1440, height: 900}

/** Lowercase, `_` and whitespace as `-`, runs of `-` as one: `Pixel_8` and `iPhone  X` are found. */
export function normalisePresetName(input: string): string {
  return input
    .trim()
    .toLowerCase()
    .replace(/[_\s]+/g, '-')
    .replace(/-+/g, '-')
}

export function presetNamed(input: string): Preset {
  const name = normalisePresetName(input)
  const preset = PRESETS.find((candidate) => candidate.name === name)
  if (!preset)
    throw new CdpError((words) => `Unknown preset '${input}'. ${words.run} ${words.call('device', {list: true})} to see available.`)
  return preset
}

/** Dart's double text, as the original prints it: `3.0`, `2.75`. */
export const dartDouble = (n: number): string => (Number.isInteger(n) ? n.toFixed(1) : String(n))

export const describeViewport = (v: Viewport): string =>
  `${v.width}x${v.height} @ ${dartDouble(v.dpr)}x (mobile=${v.mobile} touch=${v.touch})`
