-- An account sees orders placed under its email address by a guest checkout (or by anyone else
-- not signed in to it) only once it has proved that it reads mail sent to that address: a code
-- mailed to it and typed in while signed in, a password reset by a mailed code, or a Google
-- sign-in whose ID token Google marks as verified. Until then it keeps what it bought signed in.
alter table users add column email_verified_at timestamptz;

-- Google accounts were created from an ID token whose email Google had verified (login_type 2).
-- Every other existing account starts unproven: nothing recorded says it ever read its mail (an
-- account made by signing up with someone else's address looks exactly like its owner's).
update users set email_verified_at = created_at where login_type = 2;
