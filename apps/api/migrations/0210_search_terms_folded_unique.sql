-- search_terms holds one row per folded word (the catalogue load builds it so). Supplier imports now add words too
-- (issues 13 and 15, catalogue-import/search-terms.repo.ts): the unique key keeps two imports that add the same new
-- word at the same time from writing it twice in two spellings; the second one adds its count to the first's row.
CREATE UNIQUE INDEX search_terms_folded_key ON search_terms (folded);
