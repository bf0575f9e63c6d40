-- Issue 28, item 6 (left over): a task run now in the request (a JOBS=0 server has no pg-boss job to
-- carry it) whose server was killed stayed `running` for ever. Such a run records the node running it; a run
-- of a node that stopped beating is closed as failed (store.ts closeStrandedRuns).
ALTER TABLE task_runs ADD COLUMN node text;
