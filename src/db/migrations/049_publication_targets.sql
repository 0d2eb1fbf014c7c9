-- Publication targets (issue 31): a set may go to the product page (as before), a custom product
-- page or a product page optimization test's treatment. `target` is what the request asked for;
-- `variant` what the store gave it once found or made (page, page version and its URL; test and
-- treatment), so submit and the variants list need not search for it; `submission` the review
-- submission it was sent in, so a second submit sends nothing more.
ALTER TABLE publications ADD COLUMN target jsonb NOT NULL DEFAULT '{"kind": "product-page"}';
ALTER TABLE publications ADD COLUMN variant jsonb;
ALTER TABLE publications ADD COLUMN submission jsonb;
-- POST /experiments/{id}/start finds the account's publications of that test.
CREATE INDEX publications_experiment ON publications (account_id, (variant->>'experimentId')) WHERE variant ? 'experimentId';
