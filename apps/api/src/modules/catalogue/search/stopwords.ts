/**
 * Folded German stop words. Postgres' german stop list only catches them before unaccent, so the
 * folded forms of für/über (fur, uber) would otherwise become lexemes; both the indexer and the
 * query analyser drop these.
 */
export const STOP_WORDS = new Set(
  `
aber als am an auch auf aus bei bis das dem den der des die ein eine einem einen einer eines es fur
fuer im in inkl incl ist je mit nach ohne oder pro so sowie uber und unter vom von vor wie zu zum zur
`
    .trim()
    .split(/\s+/),
);
