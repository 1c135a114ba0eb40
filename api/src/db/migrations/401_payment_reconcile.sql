-- Payments confirmed by asking the gateway (the buyer's browser never came back) are logged too.
alter table payment_callbacks drop constraint if exists payment_callbacks_kind_check;
alter table payment_callbacks add constraint payment_callbacks_kind_check check (kind in ('success', 'failure', 'reconcile'));
