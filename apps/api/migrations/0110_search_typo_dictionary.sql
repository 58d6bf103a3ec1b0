-- Typo tolerance (issue 13): every catalogue word of search_terms carries its one-letter deletions, so the
-- words within one edit of a query word (insertion, deletion, substitution, transposition of neighbours,
-- at any position) are found with one GIN lookup ("symmetric delete", as SymSpell does): a query word q
-- and a catalogue word w are one edit apart only if q = w, q is a deletion of w (q = ANY(w.deletes)),
-- w is a deletion of q (w = ANY(deletes(q))) or both share a deletion (w.deletes && deletes(q)).
-- The API confirms the edit distance of the few candidates (query-analyser.ts). pg_trgm similarity stays
-- the fallback for words two or more edits away.
CREATE FUNCTION search_term_deletes(word text) RETURNS text[]
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT coalesce(array_agg(DISTINCT overlay(word PLACING '' FROM i FOR 1)), '{}')
          FROM generate_series(1, length(word)) AS i $$;

ALTER TABLE search_terms ADD COLUMN deletes text[] GENERATED ALWAYS AS (search_term_deletes(folded)) STORED;
CREATE INDEX search_terms_deletes_idx ON search_terms USING gin (deletes);

-- Zero-hit searches keep the filters they were asked with (the normalised filterUsed of the response).
ALTER TABLE search_zero_hits ADD COLUMN filters jsonb NOT NULL DEFAULT '[]';
