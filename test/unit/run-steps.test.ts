import {describe, expect, it} from 'vitest'
import {UsageError} from '../../src/lib/errors.js'
import {boundHandle, namesUsed, withHandles} from '../../src/lib/run/bindings.js'
import {planSteps, stepLines} from '../../src/lib/run/plan.js'
import {tokenizeStep} from '../../src/lib/run/tokenize.js'
import {VERBS} from '../../src/lib/verbs/index.js'

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
    ['fill --text=${env.PW}', ['fill', '--text=${env.PW}']],
    ['fill "--text=a ${env.PW}"', ['fill', '--text=a ${env.PW}']],
    ['fill --text=a$$b', ['fill', '--text=a$$b']],
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
  const verbs = new Set(['tap', 'fill', 'snap', 'close_app', 'wait', 'find'])
  const isVerb = (name: string) => verbs.has(name)
  const plan = (lines: Parameters<typeof planSteps>[0], env: Record<string, string> = {}) => planSteps(lines, {isVerb, env})

  it('splits each line into its verb and argv', () => {
    expect(plan(['tap --ref=e5', 'tapir:snap']).steps).toEqual([
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
    expect(() => plan(lines)).toThrow(reason)
  })
  it('lets an app-ending verb be the last step', () => {
    expect(plan(['snap', 'close_app']).steps.at(-1)?.verb).toBe('close_app')
  })
  it("follows each verb's step rule", () => {
    const any = (name: string) => name !== 'run'
    const planned = (lines: string[]) => planSteps(lines, {isVerb: any, env: {}})
    for (const verb of VERBS) {
      if (verb.step === 'never') expect(() => planned([verb.name]), verb.name).toThrow('does not act on the connected app')
      if (verb.step === 'last') {
        expect(() => planned([verb.name, 'snap']), verb.name).toThrow('only be the last step')
        expect(planned(['snap', verb.name]).steps.at(-1)?.verb).toBe(verb.name)
      }
      if (verb.step === 'any') expect(planned([verb.name, 'snap']).steps[0]?.verb).toBe(verb.name)
    }
    expect(VERBS.filter((verb) => verb.step === 'last').map((verb) => verb.name)).toEqual(['close_app', 'perf_run'])
  })
})

describe('stepLines', () => {
  it('skips blank lines and # comments', () => {
    expect(stepLines('# login\nsnap\n\n  # indented comment\ntap --ref=e1\r\n')).toEqual([
      {text: 'snap', line: 2},
      {text: 'tap --ref=e1', line: 5},
    ])
  })
})

describe('planSteps: names and the environment', () => {
  const isVerb = (name: string) => ['find', 'observe', 'tap', 'fill', 'drag', 'snap'].includes(name)
  const plan = (lines: string[], env: Record<string, string> = {}) => planSteps(lines, {isVerb, env})

  it('takes --as and --matches off a find step and binds the name', () => {
    const {steps} = plan(['find --text="Sign in" --as=signin --matches=2', 'tap --ref=@signin'])
    expect(steps[0]).toEqual({
      text: 'find --text="Sign in" --as=signin --matches=2',
      verb: 'find',
      argv: ['--text=Sign in'],
      binding: {name: 'signin', matches: 2},
    })
    expect(steps[1]!.argv).toEqual(['--ref=@signin'])
  })
  it('binds one widget unless --matches says more', () => {
    expect(plan(['find --key=email --as email']).steps[0]!.binding).toEqual({name: 'email', matches: 1})
  })
  it('takes --as, --label, --nth and --matches off an observe step; leaves a find its own words', () => {
    const {steps} = plan(['observe --roles=button --as=pause --label=Pause --nth=2 --matches=20', 'tap --ref=@pause'])
    expect(steps[0]).toMatchObject({argv: ['--roles=button'], binding: {name: 'pause', matches: 20, label: 'Pause', nth: 2}})
    expect(plan(["observe --as=t --label='Sign in'"]).steps[0]!.binding).toEqual({name: 't', matches: 1, label: 'Sign in', nth: 1})
    expect(plan(['find --text=A --as=a --label=A']).steps[0]!.argv).toEqual(['--text=A', '--label=A'])
  })
  it("takes a fill or type step's --holds off its words: what the field is to hold", () => {
    expect(plan(['fill --ref=e1 --text=grace --holds=GRACE']).steps[0]).toMatchObject({argv: ['--ref=e1', '--text=grace'], holds: 'GRACE'})
    expect(plan(["fill --ref=e1 --text=a --holds ''"]).steps[0]).toMatchObject({argv: ['--ref=e1', '--text=a'], holds: ''})
  })
  it.each([
    [['tap --ref=e1 --holds=A'], '--holds belongs on a fill or type step'],
    [['fill --ref=e1 --text=a --holds'], '--holds needs a value'],
    [['tap --ref=@unknown'], '@unknown is not bound'],
    [['tap --ref=@later', 'find --text=A --as=later'], '@later is not bound'],
    [['drag --startRef=@a --endRef=e2'], '@a is not bound'],
    [['tap --ref=e1 --as=x'], 'belong on a find step'],
    [['observe --as=x'], 'needs --label=<label>'],
    [['observe --label=A'], '--label needs --as'],
    [['observe --as=x --label=A --nth=3 --matches=2'], '--nth=3 is past --matches=2'],
    [['observe --as=x --label=A --nth=0'], 'a whole number of at least 1'],
    [['find --text=A --matches=2'], '--matches needs --as'],
    [['find --text=A --as=1x'], 'a name is a letter'],
    [['find --text=A --as=a --matches=0'], 'a whole number of at least 1'],
    [['find --text=A --as'], '--as needs a value'],
    [
      ['snap', 'fill --ref=e1 --text=${env.TAPIR_UNSET_FOR_TEST}'],
      'step 2 (fill --ref=e1 --text=${env.TAPIR_UNSET_FOR_TEST}): environment variable TAPIR_UNSET_FOR_TEST is not set',
    ],
    [["fill --ref=e1 --text='${other}'"], 'unknown parameter ${other}'],
  ])('refuses %j before anything runs', (lines, reason) => {
    expect(() => plan(lines)).toThrow(UsageError)
    expect(() => plan(lines)).toThrow(reason)
  })
  it('names the file line of a refused step', () => {
    expect(() => planSteps([{text: 'tap --ref=@nope', line: 7}], {isVerb, env: {}})).toThrow('step 1 (line 7) (tap --ref=@nope)')
  })
  it('reads ${env.NAME} in any word, $$ as $, and keeps the line as written', () => {
    const {steps, secrets} = plan(['fill --ref=e1 "--text=${env.PW}" --key=a$$b'], {PW: 'pa ss'})
    expect(steps[0]!.argv).toEqual(['--ref=e1', '--text=pa ss', '--key=a$b'])
    expect(steps[0]!.text).toBe('fill --ref=e1 "--text=${env.PW}" --key=a$$b')
    expect(secrets).toEqual(['pa ss'])
  })
})

describe('bindings', () => {
  it('puts the bound handle in place of @name in ref flags only', () => {
    const handles = new Map([['a', 'q4']])
    expect(withHandles(['--ref=@a', '--text=@a', '--startRef', '@a'], handles)).toEqual(['--ref=q4', '--text=@a', '--startRef', 'q4'])
  })
  it('takes the candidate an observe answered by its label and place, or says how many there were', () => {
    const answer = {
      candidates: [
        {ref: 'q1', role: 'button', label: 'Pause'},
        {ref: 'q2', role: 'button', label: 'Web'},
        {ref: 'q3', role: 'button', label: 'Pause'},
      ],
    }
    expect(boundHandle(answer, {name: 'p', matches: 2, label: 'Pause', nth: 2})).toBe('q3')
    expect(boundHandle(answer, {name: 'w', matches: 1, label: 'Web', nth: 1})).toBe('q2')
    expect(() => boundHandle(answer, {name: 'p', matches: 3, label: 'Pause', nth: 2})).toThrow(
      'found 2 candidates labelled "Pause" for @p, not the 3 there were when it was written',
    )
    expect(() => boundHandle({candidates: []}, {name: 'x', matches: 1, label: 'X', nth: 1})).toThrow('found 0 candidates')
  })
  it('binds the kebab-case spellings the reader takes as it binds the camelCase ones', () => {
    const handles = new Map([
      ['a', 'q4'],
      ['b', 'q7'],
    ])
    expect(namesUsed(['--start-ref=@a', '--end-ref', '@b'])).toEqual(['a', 'b'])
    expect(withHandles(['--start-ref=@a', '--end-ref', '@b'], handles)).toEqual(['--start-ref=q4', '--end-ref', 'q7'])
    expect(withHandles(['--startRef=@a', '--endRef=@b'], handles)).toEqual(['--startRef=q4', '--endRef=q7'])
  })
  it('takes the handle a find answered, or says what it found', () => {
    expect(() => boundHandle(undefined, {name: 'a', matches: 1})).toThrow('found no widget for @a')
    expect(boundHandle({ref: 'q2', matched: true, matchCount: 1}, {name: 'a', matches: 1})).toBe('q2')
    expect(boundHandle({ref: 'q2', matched: true}, {name: 'a', matches: 3})).toBe('q2')
    expect(() => boundHandle({ref: null, matched: false}, {name: 'a', matches: 1})).toThrow('found no widget for @a')
    expect(() => boundHandle({ref: 'q2', matched: true, matchCount: 3}, {name: 'a', matches: 1})).toThrow(
      'found 3 widgets for @a, not the 1 it matched when it was written',
    )
  })
})
