import fs from 'node:fs';
import path from 'node:path';
import { passwordRules, passwordTexts } from '@shk/contracts';
import { repoRoot } from '../../config.ts';

/** The list shipped in the repository (scripts/gen-common-passwords.mjs says where it comes from). */
const LIST_FILE = path.join(repoRoot, 'apps/api/src/modules/identity/common-passwords.txt');

let common: Set<string> | null = null;

/** Read on first use (about 10,000 lines, 90 KB) and kept. */
function commonPasswords(): Set<string> {
  common ??= new Set(
    fs
      .readFileSync(LIST_FILE, 'utf8')
      .split('\n')
      .filter((line) => line && !line.startsWith('#')),
  );
  return common;
}

/**
 * Why a new password is refused (German, for the form), or null: the length rules, the list of common passwords
 * (case-insensitive, also with surrounding spaces removed) and the account's own e-mail address. No composition
 * rules (ASVS V2.1.9).
 */
export function passwordProblem(password: string, email?: string): string | null {
  // Length in characters (code points), not UTF-16 units: an emoji counts once.
  const length = [...password].length;
  if (length < passwordRules.minLength) return passwordTexts.tooShort;
  if (length > passwordRules.maxLength) return passwordTexts.tooLong;
  const folded = password.trim().toLowerCase();
  if (commonPasswords().has(folded)) return passwordTexts.common;
  if (email && folded === email.trim().toLowerCase()) return passwordTexts.sameAsEmail;
  return null;
}
