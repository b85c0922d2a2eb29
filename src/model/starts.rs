//! Where each node's properties start: one entry per node plus a final sentinel, two bytes each
//! while every value fits (most games have fewer than 65,536 properties), four bytes otherwise.

/// Property start offsets of a tree's nodes, narrow while they fit in 16 bits.
#[derive(Clone, Debug)]
pub(crate) enum Starts {
    Narrow(Vec<u16>),
    Wide(Vec<u32>),
}

impl Starts {
    /// Just the sentinel 0 (no nodes).
    pub(crate) fn new() -> Starts {
        Starts::Narrow(vec![0])
    }

    #[inline]
    pub(crate) fn len(&self) -> usize {
        match self {
            Starts::Narrow(v) => v.len(),
            Starts::Wide(v) => v.len(),
        }
    }

    #[inline]
    pub(crate) fn get(&self, i: usize) -> u32 {
        match self {
            Starts::Narrow(v) => v[i] as u32,
            Starts::Wide(v) => v[i],
        }
    }

    fn widen(&mut self) -> &mut Vec<u32> {
        if let Starts::Narrow(v) = self {
            *self = Starts::Wide(v.iter().map(|&x| x as u32).collect());
        }
        match self {
            Starts::Wide(v) => v,
            Starts::Narrow(_) => unreachable!("just widened"),
        }
    }

    #[inline(always)]
    pub(crate) fn push(&mut self, x: u32) {
        match self {
            Starts::Narrow(v) if x <= u16::MAX as u32 => v.push(x as u16),
            Starts::Wide(v) => v.push(x),
            Starts::Narrow(_) => self.widen().push(x),
        }
    }

    /// Sets the sentinel (the end of the last node's properties).
    #[inline]
    pub(crate) fn set_last(&mut self, x: u32) {
        match self {
            Starts::Narrow(v) if x <= u16::MAX as u32 => {
                if let Some(l) = v.last_mut() {
                    *l = x as u16;
                }
            }
            Starts::Wide(v) => {
                if let Some(l) = v.last_mut() {
                    *l = x;
                }
            }
            Starts::Narrow(_) => {
                if let Some(l) = self.widen().last_mut() {
                    *l = x;
                }
            }
        }
    }

    /// Adds `delta` (±1 in practice) to every entry from `from` on.
    pub(crate) fn shift_from(&mut self, from: usize, delta: i64) {
        let needs_wide = delta > 0
            && matches!(self, Starts::Narrow(v) if v.last().is_some_and(|&l| l as i64 + delta > u16::MAX as i64));
        if needs_wide {
            self.widen();
        }
        // In two's complement: the entries stay in range (a narrow table was widened above when
        // one would not).
        match self {
            Starts::Narrow(v) => v[from..].iter_mut().for_each(|x| *x = x.wrapping_add(delta as u16)),
            Starts::Wide(v) => v[from..].iter_mut().for_each(|x| *x = x.wrapping_add(delta as u32)),
        }
    }

    /// The number of leading entries that are `<= x`.
    pub(crate) fn partition_point_le(&self, x: u32) -> usize {
        match self {
            Starts::Narrow(v) => v.partition_point(|&s| s as u32 <= x),
            Starts::Wide(v) => v.partition_point(|&s| s <= x),
        }
    }

    pub(crate) fn reserve_exact(&mut self, n: usize) {
        match self {
            Starts::Narrow(v) => v.reserve_exact(n),
            Starts::Wide(v) => v.reserve_exact(n),
        }
    }

    /// How many entries fit without growing.
    pub(crate) fn capacity(&self) -> usize {
        match self {
            Starts::Narrow(v) => v.capacity(),
            Starts::Wide(v) => v.capacity(),
        }
    }

    pub(crate) fn shrink_to_fit(&mut self) {
        match self {
            Starts::Narrow(v) => v.shrink_to_fit(),
            Starts::Wide(v) => v.shrink_to_fit(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widens_when_a_value_outgrows_16_bits() {
        let mut s = Starts::new();
        s.push(10);
        s.push(65_535);
        assert!(matches!(s, Starts::Narrow(_)));
        s.push(70_000);
        assert!(matches!(s, Starts::Wide(_)));
        assert_eq!((s.get(0), s.get(1), s.get(2), s.get(3)), (0, 10, 65_535, 70_000));
        s.set_last(70_001);
        assert_eq!(s.get(3), 70_001);
        s.shift_from(2, -1);
        assert_eq!((s.get(1), s.get(2), s.get(3)), (10, 65_534, 70_000));
        assert_eq!(s.partition_point_le(10), 2);
    }

    #[test]
    fn set_last_and_shift_widen_too() {
        let mut s = Starts::new();
        s.push(65_535);
        s.shift_from(1, 1);
        assert_eq!(s.get(1), 65_536);
        let mut t = Starts::new();
        t.set_last(100_000);
        assert_eq!(t.get(0), 100_000);
    }
}
