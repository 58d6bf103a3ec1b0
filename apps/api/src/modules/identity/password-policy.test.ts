import { describe, expect, it } from 'vitest';
import { passwordRules, passwordTexts } from '@shk/contracts';
import { passwordProblem } from './password-policy.ts';

describe('password rules', () => {
  it('asks for 12 to 128 characters, counted as characters (an emoji once), without composition rules', () => {
    expect(passwordProblem('a'.repeat(11))).toBe(passwordTexts.tooShort);
    expect(passwordProblem('🔧'.repeat(11))).toBe(passwordTexts.tooShort); // 22 UTF-16 units, 11 characters
    expect(passwordProblem('nur kleine buchstaben')).toBeNull();
    expect(passwordProblem('x'.repeat(passwordRules.maxLength))).toBeNull();
    expect(passwordProblem('x'.repeat(passwordRules.maxLength + 1))).toBe(passwordTexts.tooLong);
  });

  it('refuses the shipped common passwords in any case and with surrounding spaces, and the own address', () => {
    expect(passwordProblem('1qaz2wsx3edc')).toBe(passwordTexts.common);
    expect(passwordProblem(' QWERTYUIOP123 ')).toBe(passwordTexts.common);
    expect(passwordProblem('Passwort1234')).toBe(passwordTexts.common);
    expect(passwordProblem('Ina.Neu@Example.com', 'ina.neu@example.com')).toBe(passwordTexts.sameAsEmail);
  });
});
