//! A tiny deterministic random number generator (splitmix64): the demo must produce the same
//! bytes on every machine and every version, which no external generator promises.

#[derive(Debug, Clone)]
pub(crate) struct Rng(u64);

fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl Rng {
    /// A generator seeded by a key (provider, day, line…), independent of any other key's.
    pub fn for_key(parts: &[u64]) -> Self {
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        for part in parts {
            state = mix(state ^ part.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        }
        Self(state)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        mix(self.0)
    }

    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in [low, high).
    pub fn range(&mut self, low: f64, high: f64) -> f64 {
        low + (high - low) * self.unit()
    }

    /// A multiplicative jitter around 1 (±`spread`).
    pub fn jitter(&mut self, spread: f64) -> f64 {
        self.range(1.0 - spread, 1.0 + spread)
    }

    /// `len` lower-case hex digits.
    pub fn hex(&mut self, len: usize) -> String {
        let mut out = String::with_capacity(len);
        while out.len() < len {
            out.push_str(&format!("{:016x}", self.next_u64()));
        }
        out.truncate(len);
        out
    }
}

/// A stable number for a name (seeds keys from strings).
pub(crate) fn name_key(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_key_gives_the_same_numbers_and_others_differ() {
        let a: Vec<u64> = (0..4).map(|_| Rng::for_key(&[1, 2]).next_u64()).collect();
        assert!(a.windows(2).all(|w| w[0] == w[1]));
        assert_ne!(
            Rng::for_key(&[1, 2]).next_u64(),
            Rng::for_key(&[2, 1]).next_u64()
        );
        let mut rng = Rng::for_key(&[7]);
        assert!((0..1000)
            .map(|_| rng.unit())
            .all(|x| (0.0..1.0).contains(&x)));
    }
}
