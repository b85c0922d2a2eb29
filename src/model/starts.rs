//! Where each node's properties start: one entry per node plus a final sentinel, two bytes each
//! while every value fits (most games have fewer than 65,536 properties), four bytes otherwise.
//! A finished game whose last nodes hold one slot each (a move: most of a game) keeps only the
//! entries before them and their number ([`Starts::compacted`]).

/// Property start offsets of a tree's nodes, narrow while they fit in 16 bits.
#[derive(Clone, Debug)]
pub(crate) enum Starts {
    Narrow(Vec<u16>),
    Wide(Vec<u32>),
    /// The narrow entries up to one, then this many more, each one more than the one before
    /// (never empty; the last value fits in 16 bits). Any change but a shift of entries in the
    /// first part makes it [`Starts::Narrow`] again.
    Linear(Vec<u16>, u32),
}

/// Runs of one-slot nodes shorter than this are not worth [`Starts::Linear`].
const LINEAR_FROM: usize = 8;

impl Starts {
    /// Just the sentinel 0 (no nodes).
    pub(crate) fn new() -> Starts {
        Starts::Narrow(vec![0])
    }

    #[inline]
    pub(crate) fn len(&self) -> usize {
        // (The reader's case first: the test is a compare, not a jump table.)
        if let Starts::Narrow(v) = self {
            return v.len();
        }
        match self {
            Starts::Narrow(v) => v.len(),
            Starts::Wide(v) => v.len(),
            Starts::Linear(v, run) => v.len() + *run as usize,
        }
    }

    #[inline(always)]
    pub(crate) fn get(&self, i: usize) -> u32 {
        match self {
            Starts::Narrow(v) => v[i] as u32,
            Starts::Wide(v) => v[i],
            Starts::Linear(..) => self.get_linear(i),
        }
    }

    /// [`Starts::get`] of a [`Starts::Linear`] (out of line: the other cases stay small).
    #[inline(never)]
    fn get_linear(&self, i: usize) -> u32 {
        let Starts::Linear(v, run) = self else { return 0 };
        match v.get(i) {
            Some(&x) => x as u32,
            None if i < v.len() + *run as usize => v.last().map_or(0, |&l| l as u32) + (i + 1 - v.len()) as u32,
            None => panic!("start {i} out of {} entries", self.len()),
        }
    }

    /// A [`Starts::Linear`] written out as [`Starts::Narrow`] (any other left as it is).
    fn expand(&mut self) {
        if let Starts::Linear(v, run) = self {
            let last = v.last().copied().unwrap_or(0);
            let mut all = Vec::with_capacity(v.len() + *run as usize);
            all.extend_from_slice(v);
            // (The last value fits in 16 bits.)
            all.extend((1..=*run).map(|k| last.wrapping_add(k as u16)));
            *self = Starts::Narrow(all);
        }
    }

    fn widen(&mut self) -> &mut Vec<u32> {
        self.expand();
        if let Starts::Narrow(v) = self {
            *self = Starts::Wide(v.iter().map(|&x| x as u32).collect());
        }
        match self {
            Starts::Wide(v) => v,
            Starts::Narrow(_) | Starts::Linear(..) => unreachable!("just widened"),
        }
    }

    #[inline(always)]
    pub(crate) fn push(&mut self, x: u32) {
        // The reader's case first, the rest out of line.
        if let Starts::Narrow(v) = self {
            if x <= u16::MAX as u32 {
                v.push(x as u16);
                return;
            }
        }
        self.push_other(x);
    }

    #[inline(never)]
    fn push_other(&mut self, x: u32) {
        self.expand();
        match self {
            Starts::Wide(v) => v.push(x),
            _ => self.widen().push(x),
        }
    }

    /// A copy for a finished game, as small as it can be: [`Starts::Linear`] when its last nodes
    /// hold one slot each, else the entries at their exact size.
    pub(crate) fn compacted(&self) -> Starts {
        let Starts::Narrow(v) = self else { return self.clone() };
        // The first entry of the run of entries one more than the one before, to the end.
        let mut k = v.len().saturating_sub(1);
        // Eight entries at a time while they all follow on (a loop the compiler vectorises).
        const STEP: usize = 8;
        while k > STEP {
            let w = &v[k - STEP..=k];
            let mut on = true;
            for j in 0..STEP {
                on &= w[j].wrapping_add(1) == w[j + 1];
            }
            if !on {
                break;
            }
            k -= STEP;
        }
        while k > 0 && v[k - 1].wrapping_add(1) == v[k] {
            k -= 1;
        }
        let run = v.len() - 1 - k;
        if run < LINEAR_FROM {
            return Starts::Narrow(v.clone());
        }
        Starts::Linear(v[..=k].to_vec(), run as u32)
    }

    /// Sets the sentinel (the end of the last node's properties).
    #[inline]
    pub(crate) fn set_last(&mut self, x: u32) {
        // The reader's case first, the rest out of line.
        if let Starts::Narrow(v) = self {
            if x <= u16::MAX as u32 {
                if let Some(l) = v.last_mut() {
                    *l = x as u16;
                }
                return;
            }
        }
        self.set_last_other(x);
    }

    #[inline(never)]
    fn set_last_other(&mut self, x: u32) {
        if let Starts::Linear(..) = self {
            if self.get(self.len() - 1) == x {
                return;
            }
            self.expand();
        }
        let last = match self {
            Starts::Wide(v) => v.last_mut(),
            _ => self.widen().last_mut(),
        };
        if let Some(l) = last {
            *l = x;
        }
    }

    /// Adds `delta` (±1 in practice) to every entry from `from` on.
    pub(crate) fn shift_from(&mut self, from: usize, delta: i64) {
        // A linear table shifts in its first part (its run follows the last entry there);
        // a shift that starts in the run, or leaves 16 bits, writes it out.
        if let Starts::Linear(v, run) = self {
            let last = v.last().map_or(0, |&l| l as i64) + *run as i64;
            if from >= 1 && from < v.len() && last + delta <= u16::MAX as i64 {
                v[from..].iter_mut().for_each(|x| *x = x.wrapping_add(delta as u16));
                return;
            }
            self.expand();
        }
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
            Starts::Linear(..) => unreachable!("expanded above"),
        }
    }

    /// The number of leading entries that are `<= x`.
    pub(crate) fn partition_point_le(&self, x: u32) -> usize {
        match self {
            Starts::Narrow(v) => v.partition_point(|&s| s as u32 <= x),
            Starts::Wide(v) => v.partition_point(|&s| s <= x),
            Starts::Linear(v, run) => {
                let n = v.partition_point(|&s| s as u32 <= x);
                let last = v.last().map_or(0, |&l| l as u32);
                if n < v.len() || x <= last { n } else { n + (x - last).min(*run) as usize }
            }
        }
    }

    pub(crate) fn reserve_exact(&mut self, n: usize) {
        self.expand();
        match self {
            Starts::Narrow(v) => v.reserve_exact(n),
            Starts::Wide(v) => v.reserve_exact(n),
            Starts::Linear(..) => unreachable!("expanded above"),
        }
    }

    /// How many entries fit without growing.
    pub(crate) fn capacity(&self) -> usize {
        match self {
            Starts::Narrow(v) => v.capacity(),
            Starts::Wide(v) => v.capacity(),
            Starts::Linear(v, run) => v.capacity() + *run as usize,
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

    /// Every entry of `s`, one by one.
    fn entries(s: &Starts) -> Vec<u32> {
        (0..s.len()).map(|i| s.get(i)).collect()
    }

    #[test]
    fn a_linear_table_reads_and_changes_as_the_narrow_one() {
        let mut values: Vec<u32> = vec![0, 12, 16];
        values.extend(17..40);
        let narrow = Starts::Narrow(values.iter().map(|&x| x as u16).collect());
        let linear = narrow.compacted();
        assert!(matches!(&linear, Starts::Linear(v, 23) if v.len() == 3), "{linear:?}");
        assert_eq!(entries(&linear), values);
        assert_eq!(linear.len(), narrow.len());
        for x in [0, 5, 12, 15, 16, 17, 30, 39, 40, 1000] {
            assert_eq!(linear.partition_point_le(x), narrow.partition_point_le(x), "{x}");
        }
        // Every change gives what it gives on the narrow table.
        type Change = fn(&mut Starts);
        let changes: [Change; 9] = [
            |s| s.shift_from(1, 4),
            |s| s.shift_from(1, -2),
            |s| s.shift_from(2, 4),
            |s| s.shift_from(10, -1),
            |s| s.shift_from(1, 70_000),
            |s| s.push(41),
            |s| s.set_last(39),
            |s| s.set_last(45),
            |s| s.reserve_exact(10),
        ];
        for (k, change) in changes.iter().enumerate() {
            let (mut a, mut b) = (narrow.clone(), linear.clone());
            change(&mut a);
            change(&mut b);
            assert_eq!(entries(&a), entries(&b), "change {k}");
            assert_eq!(a.partition_point_le(30), b.partition_point_le(30), "change {k}");
        }
        // Short runs and wide tables stay as they are.
        let mut short = Starts::new();
        short.push(3);
        short.push(4);
        assert!(matches!(short.compacted(), Starts::Narrow(_)));
        // A table that is one run from the start.
        let mut run = Starts::new();
        (1..20).for_each(|x| run.push(x));
        let c = run.compacted();
        assert!(matches!(&c, Starts::Linear(v, 19) if v.len() == 1), "{c:?}");
        assert_eq!(entries(&c), entries(&run));
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
