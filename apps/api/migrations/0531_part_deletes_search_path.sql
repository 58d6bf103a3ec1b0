-- pg_restore runs with an empty search_path, and the generated column search_terms.part_deletes (0530) calls
-- search_term_part_deletes, whose body calls search_term_deletes unqualified: a restored backup failed with
-- 'function search_term_deletes(text) does not exist'. The function now carries its own search_path, which pg_dump
-- writes with it.
ALTER FUNCTION search_term_part_deletes(text) SET search_path = public, pg_catalog;
