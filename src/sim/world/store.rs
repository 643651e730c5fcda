//! The server's database: the balance, the ledger of charges, the idempotency records and the
//! outbox table. The server's writes reach it only through `Server::commit` (or, for the split
//! store's cache, a direct write), which is what makes crash rollback exact.

use super::intern::{DescId, KeyId, OpId};
use super::outbox::{OutboxRow, OutboxTable};
use crate::sim::article::production::RecordState;
use crate::sim::article::PaymentResult;
use crate::sim::base::pvec::PVec;
use crate::sim::limits::ACCOUNTS;

/// One idempotency record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreRow {
    /// The key.
    pub key: KeyId,
    /// Request fingerprint (production service only).
    pub fingerprint: Option<u64>,
    /// In flight, completed or expired.
    pub state: RecordState,
    /// The stored result (completed records).
    pub result: Option<PaymentResult>,
    /// When the record was written.
    pub created_at_ms: Option<u64>,
    /// When it expires (production service only).
    pub expires_at_ms: Option<u64>,
    /// The operation whose request holds or wrote the record.
    pub holder: Option<OpId>,
    /// Internal: the server job holding an in-flight record.
    pub(super) owner_job: Option<u32>,
    /// rocket-rides' recovery point: the processor's answer, committed under an in-flight key
    /// (with `Downstream::recovery_points`).
    pub recovery: Option<RecoveryPoint>,
}

/// What a recovery point keeps: the processor's answer, and the id of the charge it made, which
/// rocket-rides keeps too (`stripe_charge_id` on the ride) so that the request that resumes can
/// write that charge's event (the outbox row the dead worker's transaction took with it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecoveryPoint {
    /// The processor's answer.
    pub result: PaymentResult,
    /// The event id of the charge it made, if it made one.
    pub charge: Option<u64>,
}

/// One committed charge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LedgerEntry {
    /// The step whose commit wrote it.
    pub step: usize,
    /// The key the request carried.
    pub key: Option<KeyId>,
    /// The client operation that asked for it.
    pub op: OpId,
    /// Amount debited.
    pub amount: i64,
    /// Description.
    pub description: DescId,
    /// The id of the charge's event (outbox row or dual-write publish).
    pub event_id: u64,
    /// The account charged: the caller's (`Caller::account`).
    pub account: u32,
}

const NO_ROW: u32 = u32::MAX;

/// The database state. The tables are persistent vectors, so copying a world copies none of them.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(super) struct Db {
    /// Each account's balance, by `Caller::account` (0: the single account of the article).
    pub(super) balances: [i64; ACCOUNTS],
    /// Accepted deposits, all into account 0 (`Input::As` wraps requests only).
    pub(super) deposits: i64,
    pub(super) ledger: PVec<LedgerEntry>,
    pub(super) rows: PVec<StoreRow>,
    // Row index per key id (dense, since key ids are dense); NO_ROW when absent.
    row_of: PVec<u32>,
    // No live record expires before this time (a lower bound: `reap` scans only once it is
    // reached, so advancing time past nothing due costs nothing).
    next_expiry_ms: u64,
    outbox: PVec<OutboxRow>,
    // Outbox row index per event id (dense: ids count up from 1); NO_ROW for an event with no
    // row (a dual write's). The relay finds a row in O(1) instead of scanning the table.
    outbox_of: PVec<u32>,
    // Every outbox row before this index is published: the relay's poll starts here.
    unpublished_from: usize,
    pub(super) next_event_id: u64,
}

impl Db {
    /// A database whose every account holds `balance`.
    pub(super) fn new(balance: i64) -> Self {
        Self {
            balances: [balance; ACCOUNTS],
            next_event_id: 1,
            next_expiry_ms: u64::MAX,
            ..Self::default()
        }
    }

    /// The balance of `account` (0 for one out of range, which validation refuses).
    pub(super) fn balance(&self, account: u32) -> i64 {
        self.balances.get(account as usize).copied().unwrap_or(0)
    }

    /// Sets the balance of `account`.
    pub(super) fn set_balance(&mut self, account: u32, balance: i64) {
        if let Some(b) = self.balances.get_mut(account as usize) {
            *b = balance;
        }
    }

    /// The record of `key`, if any.
    pub(super) fn row(&self, key: KeyId) -> Option<&StoreRow> {
        let ix = *self.row_of.get(key.0 as usize)?;
        self.rows.get(ix as usize)
    }

    /// Inserts or replaces the record of `row.key`.
    pub(super) fn upsert(&mut self, row: StoreRow) {
        if let Some(at) = row.expires_at_ms {
            self.next_expiry_ms = self.next_expiry_ms.min(at);
        }
        let k = row.key.0 as usize;
        if self.row_of.len() <= k {
            self.row_of.resize(k + 1, NO_ROW);
        }
        match self.rows.get_mut(self.row_of[k] as usize) {
            Some(existing) => *existing = row,
            None => {
                // Row count is bounded by the key count, itself bounded by u32 ids.
                self.row_of[k] = u32::try_from(self.rows.len()).unwrap_or(NO_ROW);
                self.rows.push(row);
            }
        }
    }

    /// Deletes the record of `key`; keeps the other rows in insertion order.
    pub(super) fn remove(&mut self, key: KeyId) {
        let Some(ix) = self.row_of.get(key.0 as usize).copied() else {
            return;
        };
        if (ix as usize) >= self.rows.len() {
            return;
        }
        self.row_of[key.0 as usize] = NO_ROW;
        if ix as usize + 1 == self.rows.len() {
            // The usual case (a failed attempt's own fresh record): no other row moves.
            self.rows.truncate(ix as usize);
            return;
        }
        self.rows.remove(ix as usize);
        // Written through the index, so only chunks holding a changed slot are copied.
        for k in 0..self.row_of.len() {
            let slot = self.row_of[k];
            if slot != NO_ROW && slot > ix {
                self.row_of[k] = slot - 1;
            }
        }
    }

    /// Marks every record due by `now_ms` expired; returns their keys.
    pub(super) fn reap(&mut self, now_ms: u64, expired: &mut Vec<KeyId>) {
        if now_ms < self.next_expiry_ms {
            return;
        }
        let mut next = u64::MAX;
        // Read first, write only the rows that change: a written row's chunk is copied.
        for ix in 0..self.rows.len() {
            let row = &self.rows[ix];
            if row.state == RecordState::Expired {
                continue;
            }
            match row.expires_at_ms {
                Some(e) if now_ms >= e => {
                    expired.push(row.key);
                    self.rows[ix].state = RecordState::Expired;
                }
                Some(e) => next = next.min(e),
                None => {}
            }
        }
        self.next_expiry_ms = next;
    }

    /// The outbox table, in commit order.
    pub(super) fn outbox(&self) -> &PVec<OutboxRow> {
        &self.outbox
    }

    /// Whether event `id` has an outbox row.
    pub(super) fn has_outbox_row(&self, id: u64) -> bool {
        usize::try_from(id)
            .ok()
            .and_then(|slot| self.outbox_of.get(slot))
            .is_some_and(|&ix| ix != NO_ROW)
    }

    /// Appends a committed outbox row.
    pub(super) fn push_outbox(&mut self, row: OutboxRow) {
        let Ok(slot) = usize::try_from(row.id) else {
            return;
        };
        if self.outbox_of.len() <= slot {
            self.outbox_of.resize(slot + 1, NO_ROW);
        }
        // Row count is bounded by the event count, itself bounded by MAX_TRACE_EVENTS.
        self.outbox_of[slot] = u32::try_from(self.outbox.len()).unwrap_or(NO_ROW);
        self.outbox.push(row);
    }

    /// The outbox row of event `id`, to update.
    pub(super) fn outbox_row_mut(&mut self, id: u64) -> Option<&mut OutboxRow> {
        let ix = *self.outbox_of.get(usize::try_from(id).ok()?)?;
        self.outbox.get_mut(ix as usize)
    }

    /// The ids of the unpublished outbox rows, in commit order (what the relay polls).
    pub(super) fn unpublished(&mut self) -> Vec<u64> {
        while self
            .outbox
            .get(self.unpublished_from)
            .is_some_and(|r| r.published)
        {
            self.unpublished_from += 1;
        }
        self.outbox
            .iter_from(self.unpublished_from)
            .filter(|r| !r.published)
            .map(|r| r.id)
            .collect()
    }

    /// A fresh event id.
    pub(super) fn event_id(&mut self) -> u64 {
        let id = self.next_event_id;
        self.next_event_id = self.next_event_id.saturating_add(1);
        id
    }
}

impl OutboxTable for Db {
    fn unpublished(&mut self) -> Vec<u64> {
        Db::unpublished(self)
    }
    fn row_mut(&mut self, id: u64) -> Option<&mut OutboxRow> {
        self.outbox_row_mut(id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(k: u32) -> StoreRow {
        StoreRow {
            key: KeyId(k),
            fingerprint: None,
            state: RecordState::Completed,
            result: None,
            created_at_ms: Some(0),
            expires_at_ms: Some(10),
            holder: None,
            owner_job: None,
            recovery: None,
        }
    }

    #[test]
    fn upsert_remove_keep_order() {
        let mut db = Db::new(0);
        db.upsert(row(3));
        db.upsert(row(1));
        db.upsert(row(7));
        db.upsert(StoreRow {
            fingerprint: Some(9),
            ..row(1)
        });
        assert_eq!(db.rows.len(), 3);
        assert_eq!(db.row(KeyId(1)).and_then(|r| r.fingerprint), Some(9));
        db.remove(KeyId(3));
        db.remove(KeyId(42));
        assert!(db.row(KeyId(3)).is_none());
        assert_eq!(db.rows[0].key, KeyId(1));
        assert_eq!(db.row(KeyId(7)).map(|r| r.key), Some(KeyId(7)));
        let mut out = Vec::new();
        db.reap(10, &mut out);
        assert_eq!(out, vec![KeyId(1), KeyId(7)]);
        out.clear();
        db.reap(20, &mut out);
        assert!(out.is_empty(), "reaped once");
    }
}
