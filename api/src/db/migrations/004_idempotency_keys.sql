-- Requests sent with an Idempotency-Key (api/src/http/idempotency.ts): the first attempt claims its
-- key, then stores its answer; a repeat of the same call gets that answer instead of doing the work
-- again. Pruned by the prune job after IDEMPOTENCY_KEY_HOURS.
create table idempotency_keys (
  -- sha256 of who asked (the session token's hash, or "anonymous") and the key: keys are per caller,
  -- and the key itself is not stored (it is what opens the stored answer).
  key_hash text primary key,
  -- sha256 of method, path with query, and body: the same key with another request is refused.
  request_hash text not null,
  status text not null default 'running' check (status in ('running', 'done')),
  -- Which attempt holds the claim; a takeover of an abandoned claim gives it a new one.
  claim_id text not null,
  claimed_at timestamptz not null default now(),
  response_status integer,
  -- The answer's JSON, AES-256-GCM sealed with a key derived from the Idempotency-Key: answers
  -- can carry a session token, and the database keeps no usable token.
  response_body text,
  created_at timestamptz not null default now(),
  completed_at timestamptz
);
create index idempotency_keys_created_idx on idempotency_keys (created_at);
