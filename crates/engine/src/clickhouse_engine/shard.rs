//! Which shard holds a tenant's partitions of one provider's billing account: computed here, the
//! same in every build and on every machine, never by a `Distributed` table's own sharding (an
//! upload's partitions are swapped with `REPLACE PARTITION` on the shard that holds them, so the
//! loader must know which one that is).

/// The shard (0-based, of `shards`) of `customer`'s partitions of `provider` + `billing_account`.
pub(crate) fn shard_of(
    customer: i64,
    provider: &str,
    billing_account: &str,
    shards: usize,
) -> usize {
    if shards <= 1 {
        return 0;
    }
    (key_hash(customer, provider, billing_account) % shards as u64) as usize
}

/// FNV-1a (64 bits) of the customer id (8 bytes, little-endian) and both strings, each after
/// its length (8 bytes, little-endian), so that no two keys share their bytes. Stable: a change
/// moves partitions to other shards (the test pins its values).
fn key_hash(customer: i64, provider: &str, billing_account: &str) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let mut hash = OFFSET;
    let mut feed = |bytes: &[u8]| {
        for &byte in bytes {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(PRIME);
        }
    };
    feed(&customer.to_le_bytes());
    for text in [provider, billing_account] {
        feed(&(text.len() as u64).to_le_bytes());
        feed(text.as_bytes());
    }
    hash
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hash_is_fnv_1a_and_never_changes() {
        // FNV-1a's published test vector: the empty input is the offset basis.
        assert_eq!(key_hash_of_bytes(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(key_hash_of_bytes(b"a"), 0xaf63_dc4c_8601_ec8c);
        // Pinned: changing them moves every stored partition to another shard.
        assert_eq!(key_hash(3, "aws", "999999999999"), 0x4320_469c_8010_753e);
        assert_eq!(key_hash(-1, "", ""), 0xe26a_2a69_2e4c_4f7d);
    }

    fn key_hash_of_bytes(bytes: &[u8]) -> u64 {
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for &byte in bytes {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
        hash
    }

    #[test]
    fn keys_that_share_their_bytes_differ() {
        assert_ne!(key_hash(1, "ab", "c"), key_hash(1, "a", "bc"));
        assert_ne!(key_hash(1, "aws", "x"), key_hash(2, "aws", "x"));
    }

    #[test]
    fn one_shard_holds_everything_and_keys_spread_over_several() {
        assert_eq!(shard_of(7, "aws", "1", 1), 0);
        assert_eq!(shard_of(7, "aws", "1", 0), 0);
        let mut counts = [0usize; 2];
        for customer in 0..50 {
            for account in 0..20 {
                let shard = shard_of(customer, "aws", &format!("{account:012}"), 2);
                counts[shard] += 1;
            }
        }
        // 1,000 keys: each shard within 10% of half.
        assert!(
            counts.iter().all(|&c| (450..=550).contains(&c)),
            "{counts:?}"
        );
        for shards in 1..6 {
            assert!(shard_of(3, "gcp", "0A-1B", shards) < shards);
        }
    }
}
