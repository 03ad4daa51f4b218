/**
 * Weak randomness as a data-flow kind (sink kind `randomness`, source kind `weak-random`): which
 * names are secrets, where findings stand, that generator values and attacker data do not mix
 * across sink kinds, and that callers of a generator wrapper are analyzed even when they name
 * no source.
 */
import { describe, expect, it } from 'vitest'
import { analyzeDataFlow } from '../../src/engine/dataflow/index.ts'
import { isSecretName } from '../../src/engine/dataflow/secret-names.ts'

type Files = Record<string, string>

function run(files: Files) {
  return analyzeDataFlow(Object.entries(files).map(([path, text]) => ({ path, text })))
}

/** `path:line category` of every finding. */
function reported(files: Files): string[] {
  return run(files).findings.map((finding) => `${finding.filePath}:${finding.lineNumber} ${finding.category}`)
}

describe('secret names', () => {
  it.each(['resetToken', 'reset_token', 'RESET_TOKEN', 'csrf', 'otp', 'apiKey', 'api_key', 'session_id', 'SESSIONID', 'setPassword', 'set_password', 'pin', 'salt', 'iv', 'verificationCode', 'newUnlockCode', 'generateToken', 'getNonce'])(
    '%s is a secret',
    (name) => expect(isSecretName(name)).toBe(true),
  )

  it.each(['tokenize', 'spinner', 'tokenExpiry', 'pinLength', 'saltSize', 'token_ttl', 'retryDelay', 'jitter', 'code', 'ticketReference', 'colour', 'cacheKey', 'id', 'setColour'])('%s is not a secret', (name) =>
    expect(isSecretName(name)).toBe(false),
  )
})

describe('weak randomness', () => {
  it('stands at the generator and shows the decision in its trace', () => {
    const result = run({
      'codes.py': 'import random\n\ndef new_code():\n    return random.randint(0, 999999)\n\ndef issue(user):\n    user.otp = new_code()\n',
    })
    expect(result.findings).toHaveLength(1)
    const finding = result.findings[0]
    expect(finding?.lineNumber).toBe(4)
    expect(finding?.category).toBe('insecure-randomness')
    expect(finding?.cweIds).toEqual(['CWE-330'])
    expect(finding?.dataFlow?.sink.lineNumber).toBe(7)
    expect(finding?.dataFlow?.sink.note).toBe('stored in user.otp')
    expect(finding?.explanation).toContain('A predictable value from')
  })

  it('reports one finding per generator reaching several decisions', () => {
    const files = { 'app.js': "function token() {\n  return Math.random().toString(36)\n}\nconst t = token()\nres.cookie('a', t)\nreq.session.token = t\n" }
    expect(reported(files)).toEqual(['app.js:2 insecure-randomness'])
  })

  it('counts a value stored under a name given as the argument before it', () => {
    const files = {
      'app.js': [
        "function send(res) {",
        "  res.set('X-Csrf-Token', Math.random().toString(36).slice(2))",
        "  res.set('X-Request-Start', String(Math.random()))",
        "  localStorage.setItem('session_id', String(Math.random()))",
        "}",
        '',
      ].join('\n'),
    }
    expect(reported(files)).toEqual(['app.js:2 insecure-randomness', 'app.js:4 insecure-randomness'])
  })

  it('follows a wrapper into a file that names no source', () => {
    const files = {
      'util/draw.py': 'import random\n\ndef draw_digits(count):\n    return "".join(str(random.randint(0, 9)) for _ in range(count))\n',
      'accounts.py': 'from util.draw import draw_digits\n\ndef start_reset(user):\n    user.reset_code = draw_digits(6)\n    return user\n',
    }
    const result = run(files)
    expect(result.findings.map((finding) => `${finding.filePath}:${finding.lineNumber}`)).toEqual(['util/draw.py:4'])
    expect(result.findings[0]?.dataFlow?.sink.filePath).toBe('accounts.py')
  })

  it('is not an injection source, and attacker data is not weak randomness', () => {
    const files = {
      'app.py': [
        'import os, random',
        'from flask import request, make_response',
        '',
        '@app.route("/x")',
        'def view():',
        '    os.system("sleep " + str(random.random()))',
        '    resp = make_response("ok")',
        '    resp.set_cookie("theme", request.args["theme"])',
        '    return resp',
        '',
      ].join('\n'),
    }
    expect(reported(files)).toEqual(['app.py:8 header-injection'])
  })

  it('keeps generator values through arithmetic and numeric conversions, not through comparisons', () => {
    const files = {
      'Codes.java': [
        'import java.util.Random;',
        'public class Codes {',
        '    private final Random rnd = new Random();',
        '    public void issue(Account account) {',
        '        int pin = Integer.parseInt("" + (1000 + rnd.nextInt(9) * 1000));',
        '        account.setPin(pin);',
        '        boolean lucky = rnd.nextInt(10) > 5;',
        '        account.setPasswordReset(lucky);',
        '    }',
        '}',
        '',
      ].join('\n'),
    }
    expect(reported(files)).toEqual(['Codes.java:5 insecure-randomness'])
  })
})
