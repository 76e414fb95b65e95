import {describe, expect, it} from 'vitest'
import {UsageError} from '../../src/lib/errors.js'
import {planSteps, stepLines} from '../../src/lib/run/plan.js'
import {tokenizeStep} from '../../src/lib/run/tokenize.js'

describe('tokenizeStep', () => {
  it.each([
    ['fill --ref=q1 --text="a b"', ['fill', '--ref=q1', '--text=a b']],
    [`fill --ref=q1 --text='say "hi"'`, ['fill', '--ref=q1', '--text=say "hi"']],
    [`fill --ref=q1 --text="it's"`, ['fill', '--ref=q1', "--text=it's"]],
    ['fill --ref=q1 --text="a\\"b"', ['fill', '--ref=q1', '--text=a"b']],
    ['fill --ref=q1 --text=a\\ b', ['fill', '--ref=q1', '--text=a b']],
    ['fill --ref=q1 --text=""', ['fill', '--ref=q1', '--text=']],
    ["fill --ref=q1 --text=''", ['fill', '--ref=q1', '--text=']],
    ['fill --ref=q1 --text=Grüße😀', ['fill', '--ref=q1', '--text=Grüße😀']],
    [`fill --ref=q1 --text='$HOME'`, ['fill', '--ref=q1', '--text=$HOME']],
    ['snap --grep "Total|Sum"', ['snap', '--grep', 'Total|Sum']],
    ['snap --grep "*"', ['snap', '--grep', '*']],
    ['snap   # trailing comment', ['snap']],
    [`wait --text='a;b && c > d'`, ['wait', '--text=a;b && c > d']],
    ['fill --text=C#', ['fill', '--text=C#']],
    ['fill --text=a#b # a comment', ['fill', '--text=a#b']],
    ['"a"#b', ['a#b']],
    ['fill --text=\\*', ['fill', '--text=*']],
    ['fill --text=\\?', ['fill', '--text=?']],
    ['fill --text="price $"', ['fill', '--text=price $']],
    ['fill --text=100$', ['fill', '--text=100$']],
    ['fill --text=\\$HOME', ['fill', '--text=$HOME']],
    ['fill --text="\\$HOME"', ['fill', '--text=$HOME']],
    ['fill --text="it\\`s"', ['fill', '--text=it`s']],
    ['fill --text={}', ['fill', '--text={}']],
  ])('%s', (line, words) => {
    expect(tokenizeStep(line)).toEqual(words)
  })

  it.each([
    ['tap --ref=e5; rm -rf /', 'operator ";"'],
    ['snap | head', 'operator "|"'],
    ['tap --ref=e5 && snap', 'operator "&&"'],
    ['snap > out.txt', 'operator ">"'],
    ['snap &', 'operator "&"'],
    ['snap --grep *', 'glob'],
    ['snap --grep x?y', 'glob character "?"'],
    ['snap --grep [abc]', 'glob character "["'],
    ['fill --text=a{b,c}', 'brace expansion'],
    ['fill --text={1..3}', 'brace expansion'],
    ['fill --text="abc', 'unterminated double quote'],
    ["fill --text='abc", 'unterminated single quote'],
    ['fill --text=abc\\', 'lone backslash'],
    ['fill --text=${HOME}', '$HOME'],
    ['fill --ref=q1 --text=$HOME', '$HOME'],
    ['fill --ref=q1 --text="$USER"', '$USER'],
    ['fill --ref=q1 --text=$(whoami)', 'command substitution'],
    ['fill --ref=q1 --text="`whoami`"', 'command substitution'],
    ['screenshot --output ~/shot.png', '"~"'],
  ])('refuses %s', (line, reason) => {
    expect(() => tokenizeStep(line)).toThrow(UsageError)
    expect(() => tokenizeStep(line)).toThrow(reason)
  })
})

describe('planSteps', () => {
  const verbs = new Set(['tap', 'fill', 'snap', 'close_app', 'wait'])
  const isVerb = (name: string) => verbs.has(name)

  it('splits each line into its verb and argv', () => {
    expect(planSteps(['tap --ref=e5', 'tapir:snap'], isVerb)).toEqual([
      {text: 'tap --ref=e5', verb: 'tap', argv: ['--ref=e5']},
      {text: 'tapir:snap', verb: 'snap', argv: []},
    ])
  })
  it.each([
    [['run "snap"'], 'cannot contain another run'],
    [['resize --width=375'], 'does not act on the connected app'],
    [['perf_compare --a=x --b=y'], 'does not act on the connected app'],
    [['frobnicate'], 'unknown verb "frobnicate"'],
    [['close_app', 'snap'], 'only be the last step'],
    [['snap --timeout=5'], '--timeout belongs to tapir:run'],
    [['snap --state x.json'], '--state belongs to tapir:run'],
    [[], 'No steps'],
    [['snap', 'tap --ref=e1 | x'], 'step 2 (tap --ref=e1 | x)'],
  ])('refuses %j before anything runs', (lines, reason) => {
    expect(() => planSteps(lines, isVerb)).toThrow(reason)
  })
  it('lets an app-ending verb be the last step', () => {
    expect(planSteps(['snap', 'close_app'], isVerb).at(-1)?.verb).toBe('close_app')
  })
})

describe('stepLines', () => {
  it('skips blank lines and # comments', () => {
    expect(stepLines('# login\nsnap\n\n  # indented comment\ntap --ref=e1\r\n')).toEqual(['snap', 'tap --ref=e1'])
  })
})
