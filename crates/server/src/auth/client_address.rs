//! The client's address for rate limits: the TCP peer, or, when the peer is a trusted reverse
//! proxy, the address that proxy reports in `X-Forwarded-For`.

use std::net::IpAddr;
use std::str::FromStr;

use axum::http::HeaderMap;

/// An address block such as `10.0.0.0/8`, `::1/128` or a single address (`127.0.0.1`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IpBlock {
    network: IpAddr,
    prefix: u8,
}

impl IpBlock {
    pub fn contains(&self, address: IpAddr) -> bool {
        match (self.network, canonical(address)) {
            (IpAddr::V4(network), IpAddr::V4(address)) => {
                prefix_matches(&network.octets(), &address.octets(), self.prefix)
            }
            (IpAddr::V6(network), IpAddr::V6(address)) => {
                prefix_matches(&network.octets(), &address.octets(), self.prefix)
            }
            _ => false,
        }
    }
}

impl FromStr for IpBlock {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let text = text.trim();
        let (address, prefix) = match text.split_once('/') {
            Some((address, prefix)) => (address, Some(prefix)),
            None => (text, None),
        };
        let network = canonical(
            address
                .parse::<IpAddr>()
                .map_err(|_| format!("{text:?} is not an IP address or CIDR block"))?,
        );
        let bits = if network.is_ipv4() { 32 } else { 128 };
        let prefix = match prefix {
            Some(prefix) => prefix
                .parse::<u8>()
                .ok()
                .filter(|prefix| *prefix <= bits)
                .ok_or_else(|| format!("{text:?}: the prefix length must be 0 to {bits}"))?,
            None => bits,
        };
        Ok(Self { network, prefix })
    }
}

/// An IPv4-mapped IPv6 address (`::ffff:10.0.0.1`) compares as the IPv4 address.
fn canonical(address: IpAddr) -> IpAddr {
    match address {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(IpAddr::V6(v6), IpAddr::V4),
        v4 => v4,
    }
}

fn prefix_matches(network: &[u8], address: &[u8], prefix: u8) -> bool {
    let full_bytes = usize::from(prefix / 8);
    let rest = prefix % 8;
    if network[..full_bytes] != address[..full_bytes] {
        return false;
    }
    if rest == 0 {
        return true;
    }
    let mask = 0xffu8 << (8 - rest);
    network[full_bytes] & mask == address[full_bytes] & mask
}

/// The reverse proxies whose `X-Forwarded-For` is believed (`trusted_proxies`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TrustedProxies(Vec<IpBlock>);

impl TrustedProxies {
    pub fn parse<S: AsRef<str>>(entries: &[S]) -> Result<Self, String> {
        entries
            .iter()
            .map(|entry| entry.as_ref().parse())
            .collect::<Result<Vec<_>, _>>()
            .map(Self)
    }

    fn trusts(&self, address: IpAddr) -> bool {
        self.0.iter().any(|block| block.contains(address))
    }

    /// The client behind `peer`: `peer` itself unless it is a trusted proxy; then the
    /// right-most `X-Forwarded-For` entry that is not a trusted proxy (entries further left
    /// were written by the client and may be forged). A malformed entry stops the walk.
    pub fn client_address(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        let peer = canonical(peer);
        if !self.trusts(peer) {
            return peer;
        }
        let forwarded = headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|value| value.to_str().ok())
            .flat_map(|value| value.split(','))
            .map(str::trim)
            .filter(|entry| !entry.is_empty())
            .collect::<Vec<_>>();
        let mut client = peer;
        for entry in forwarded.iter().rev() {
            let Ok(address) = entry.parse::<IpAddr>().map(canonical) else {
                break;
            };
            client = address;
            if !self.trusts(address) {
                break;
            }
        }
        client
    }
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;

    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    fn forwarded(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert("x-forwarded-for", HeaderValue::from_str(value).unwrap());
        headers
    }

    #[test]
    fn blocks_match_their_prefix_only() {
        let block: IpBlock = "10.1.0.0/16".parse().unwrap();
        assert!(block.contains(ip("10.1.200.3")));
        assert!(!block.contains(ip("10.2.0.1")));
        assert!(block.contains(ip("::ffff:10.1.0.9")));
        let single: IpBlock = "127.0.0.1".parse().unwrap();
        assert!(single.contains(ip("127.0.0.1")) && !single.contains(ip("127.0.0.2")));
        let v6: IpBlock = "fd00::/8".parse().unwrap();
        assert!(v6.contains(ip("fd12::1")) && !v6.contains(ip("fe80::1")));
        let odd: IpBlock = "192.168.0.0/23".parse().unwrap();
        assert!(odd.contains(ip("192.168.1.255")) && !odd.contains(ip("192.168.2.0")));
        for bad in ["10.0.0.0/33", "nonsense", "10.0.0.0/x", "::/129"] {
            assert!(bad.parse::<IpBlock>().is_err(), "{bad}");
        }
    }

    #[test]
    fn forwarded_for_is_read_only_from_a_trusted_peer() {
        let proxies = TrustedProxies::parse(&["10.0.0.0/8"]).unwrap();
        let headers = forwarded("203.0.113.9");
        assert_eq!(
            proxies.client_address(ip("10.0.0.5"), &headers),
            ip("203.0.113.9")
        );
        assert_eq!(
            proxies.client_address(ip("198.51.100.1"), &headers),
            ip("198.51.100.1"),
            "an untrusted peer cannot choose its address"
        );
        assert_eq!(
            TrustedProxies::default().client_address(ip("10.0.0.5"), &headers),
            ip("10.0.0.5"),
            "no trusted proxies: the header is ignored"
        );
    }

    #[test]
    fn the_right_most_untrusted_entry_is_the_client() {
        let proxies = TrustedProxies::parse(&["10.0.0.0/8"]).unwrap();
        // The client forged the first entry; our proxies appended the rest.
        let headers = forwarded("1.2.3.4, 203.0.113.9, 10.0.0.7");
        assert_eq!(
            proxies.client_address(ip("10.0.0.5"), &headers),
            ip("203.0.113.9")
        );
        assert_eq!(
            proxies.client_address(ip("10.0.0.5"), &forwarded("garbage, 10.0.0.7")),
            ip("10.0.0.7"),
            "a malformed entry stops the walk at the last proxy"
        );
        assert_eq!(
            proxies.client_address(ip("10.0.0.5"), &HeaderMap::new()),
            ip("10.0.0.5")
        );
    }
}
