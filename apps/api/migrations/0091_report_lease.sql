-- Report generation lease (docs/dashboard-reports.md, 'Life cycle'): the worker generating a report
-- renews lease_until while it runs; a report in progress whose lease ran out belonged to a worker that
-- died and is queued again by the report sweeper (instead of waiting for pg-boss's 15-minute expiry).
ALTER TABLE reports ADD COLUMN IF NOT EXISTS lease_until timestamptz;
CREATE INDEX IF NOT EXISTS reports_unfinished_idx ON reports (id) WHERE status_id IN (1, 2);
