import {describe, expect, it} from 'vitest'
import {bindingName, quoteWord, secretVariable, stepLine} from '../../src/lib/record/render.js'
import {planSteps} from '../../src/lib/run/plan.js'
import {tokenizeStep} from '../../src/lib/run/tokenize.js'

/** What tapir:run reads a rendered step as: its words after the split and `${env.…}`. */
const replayed = (line: string, env: Record<string, string> = {}) => planSteps([line], {isVerb: () => true, env}).steps[0]!.argv

describe('step words round-trip through the step tokenizer', () => {
  it.each([
    'plain',
    'a b',
    "it's",
    'say "hi"',
    'a$b',
    '$HOME',
    '${env.HOME}',
    '$$',
    'C#',
    '# not a comment',
    '*',
    'x?y',
    '[abc]',
    'a{b,c}',
    '{1..3}',
    '~',
    '~/x',
    'a;b && c > d | e',
    '`whoami`',
    '$(whoami)',
    'back\\slash',
    'trailing\\',
    'Grüße 😀',
    '',
    "'",
    '@name',
    '--flag',
    '  padded  ',
  ])('%j', (value) => {
    const line = stepLine('fill', [
      ['ref', 'q1'],
      ['text', value],
    ])
    expect(tokenizeStep(line)[0]).toBe('fill')
    expect(replayed(line)).toEqual(['--ref=q1', `--text=${value}`])
  })

  it('leaves a safe value bare and quotes the rest', () => {
    expect(quoteWord('ada@example.com')).toBe('ada@example.com')
    expect(quoteWord('Sign in')).toBe("'Sign in'")
    expect(quoteWord("it's")).toBe("'it'\\''s'")
    expect(quoteWord('a$b')).toBe("'a$$b'")
  })

  it('refuses a value with a line break (one step is one line)', () => {
    expect(() => quoteWord('a\nb')).toThrow('line break')
  })

  it('writes a secret as the variable it is read from, never quoted', () => {
    const line = stepLine('fill', [
      ['ref', '@password'],
      ['text', '${env.TAPIR_SECRET_PASSWORD}', true],
    ])
    expect(line).toBe('fill --ref=@password --text=${env.TAPIR_SECRET_PASSWORD}')
    expect(replayed(`find --key=password --as=password`)).toEqual(['--key=password'])
    expect(tokenizeStep(line)).toEqual(['fill', '--ref=@password', '--text=${env.TAPIR_SECRET_PASSWORD}'])
  })

  it('writes booleans as flags, lists comma-separated', () => {
    expect(
      stepLine('press_key', [
        ['key', 'S'],
        ['modifiers', ['control', 'shift']],
        ['retarget', false],
        ['checkStable', true],
      ]),
    ).toBe('press_key --key=S --modifiers=control,shift --no-retarget --checkStable')
  })
})

describe('names', () => {
  it('names a secret variable after its field', () => {
    expect(secretVariable('password')).toBe('TAPIR_SECRET_PASSWORD')
    expect(secretVariable('PIN code (4 digits)')).toBe('TAPIR_SECRET_PIN_CODE_4_DIGITS')
    expect(secretVariable('••')).toBe('TAPIR_SECRET_FIELD')
  })
  it('binds a label to a unique name', () => {
    expect(bindingName('Sign in', new Set())).toBe('sign_in')
    expect(bindingName('Pause', new Set(['pause']))).toBe('pause_2')
    expect(bindingName('Pause', new Set(['pause', 'pause_2']))).toBe('pause_3')
    expect(bindingName('3 items', new Set())).toBe('w_3_items')
    expect(bindingName('★', new Set())).toBe('widget')
  })
})
