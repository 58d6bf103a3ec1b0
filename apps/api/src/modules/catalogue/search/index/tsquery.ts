/**
 * Parser of Postgres' tsquery output text (`to_tsquery(…)::text`), so the in-process index
 * evaluates exactly the query Postgres would: lexemes as stemmed by the `german_unaccent`
 * configuration, prefix (`:*`) and weight (`:AB`) flags, `&`, `|`, `!` and phrase operators.
 */

export type TsNode =
  | { op: 'lexeme'; lexeme: string; prefix: boolean; weights: string }
  | { op: 'and' | 'or' | 'phrase'; left: TsNode; right: TsNode }
  | { op: 'not'; arg: TsNode };

type Token = { t: 'lexeme'; node: TsNode } | { t: '&' | '|' | '!' | '(' | ')' | 'phrase' };

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === ' ') {
      i++;
    } else if (c === "'") {
      let lexeme = '';
      i++;
      while (i < text.length) {
        if (text[i] === "'" && text[i + 1] === "'") {
          lexeme += "'";
          i += 2;
        } else if (text[i] === '\\' && i + 1 < text.length) {
          lexeme += text[i + 1];
          i += 2;
        } else if (text[i] === "'") {
          i++;
          break;
        } else lexeme += text[i++];
      }
      let prefix = false;
      let weights = '';
      if (text[i] === ':') {
        i++;
        while (i < text.length && /[*ABCD]/.test(text[i])) {
          if (text[i] === '*') prefix = true;
          else weights += text[i];
          i++;
        }
      }
      tokens.push({ t: 'lexeme', node: { op: 'lexeme', lexeme, prefix, weights } });
    } else if (c === '<') {
      const end = text.indexOf('>', i);
      if (end < 0) throw new Error(`tsquery: unterminated phrase operator in ${text}`);
      tokens.push({ t: 'phrase' });
      i = end + 1;
    } else if (c === '&' || c === '|' || c === '!' || c === '(' || c === ')') {
      tokens.push({ t: c });
      i++;
    } else throw new Error(`tsquery: unexpected '${c}' in ${text}`);
  }
  return tokens;
}

/** Parses a tsquery's text form; null for the empty query (matches nothing). */
export function parseTsquery(text: string): TsNode | null {
  const tokens = tokenize(text);
  if (!tokens.length) return null;
  let pos = 0;
  const peek = () => tokens[pos]?.t;
  // Precedence (Postgres): ! binds tightest, then <->, then &, then |.
  const primary = (): TsNode => {
    const token = tokens[pos++];
    if (!token) throw new Error(`tsquery: unexpected end of ${text}`);
    if (token.t === 'lexeme') return token.node;
    if (token.t === '!') return { op: 'not', arg: primary() };
    if (token.t === '(') {
      const node = or();
      if (tokens[pos++]?.t !== ')') throw new Error(`tsquery: missing ')' in ${text}`);
      return node;
    }
    throw new Error(`tsquery: unexpected ${token.t} in ${text}`);
  };
  const phrase = (): TsNode => {
    let node = primary();
    while (peek() === 'phrase') {
      pos++;
      node = { op: 'phrase', left: node, right: primary() };
    }
    return node;
  };
  const and = (): TsNode => {
    let node = phrase();
    while (peek() === '&') {
      pos++;
      node = { op: 'and', left: node, right: phrase() };
    }
    return node;
  };
  const or = (): TsNode => {
    let node = and();
    while (peek() === '|') {
      pos++;
      node = { op: 'or', left: node, right: and() };
    }
    return node;
  };
  const node = or();
  if (pos !== tokens.length) throw new Error(`tsquery: trailing tokens in ${text}`);
  return node;
}

/** The lexemes of a query (for a phrase: the words that must all occur). */
export function lexemesOf(node: TsNode): { lexeme: string; prefix: boolean; weights: string }[] {
  if (node.op === 'lexeme') return [node];
  if (node.op === 'not') return [];
  return [...lexemesOf(node.left), ...lexemesOf(node.right)];
}
