-- Typo tolerance inside hyphenated words: 'Brennwert-Kombitherme', 'Stand-WC' and 'KG-Bogen' are one word each in
-- search_terms, so a typo in one of their parts ('Kombitehrme', 'Stnad', 'Bgoen') is no edit away from any catalogue
-- word there. Every hyphenated word (folded: more than one run of letters and digits) carries the parts of four or
-- more letters with their one-letter deletions, so the part one edit away from a query word is found with one GIN
-- lookup, the same symmetric delete as migration 0110 does for whole words. NULL for words of one part (most rows).
CREATE FUNCTION search_term_part_deletes(word text) RETURNS text[]
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT CASE WHEN word ~ '[a-z0-9][^a-z0-9]+[a-z0-9]' THEN (
          SELECT array_agg(DISTINCT d)
            FROM regexp_split_to_table(word, '[^a-z0-9]+') AS p(part)
           CROSS JOIN LATERAL unnest(search_term_deletes(p.part) || p.part) AS d
           WHERE p.part ~ '^[a-z]{4,}$') END $$;

ALTER TABLE search_terms ADD COLUMN part_deletes text[] GENERATED ALWAYS AS (search_term_part_deletes(folded)) STORED;
CREATE INDEX search_terms_part_deletes_idx ON search_terms USING gin (part_deletes);
