//! The crate's one sort, for what compiling a template and checking it put in order.
//!
//! The standard library's sorts are fast and large: each element type sorted gets its own
//! copy, several kilobytes of sorting networks and merges, which together were a seventh of
//! the WebAssembly module's code. Here one heapsort, of positions and behind a `dyn`
//! comparison, serves every type, and each caller adds only a small permutation. Compiles
//! sort at most a few thousand items, where the loss in speed does not show. One sort is on a
//! match's path: the keys of an exploded map of more than 16, checked for a repeated one.
//! There a URI of thousands of keys costs about half as much again as with the standard
//! library's sort (`limit-map_keys` in `benches/RESULTS.md`): still `n log n` in the keys,
//! which the URI's length bounds.

use std::cmp::Ordering;

/// Sorts `items` by `compare`, stably: equal items keep their order.
pub(crate) fn sort_by<T>(items: &mut [T], mut compare: impl FnMut(&T, &T) -> Ordering) {
    let order = order(items.len(), &mut |a, b| compare(&items[a], &items[b]));
    permute(items, order);
}

/// Sorts `items` by `key`, stably.
pub(crate) fn sort_by_key<T, K: Ord>(items: &mut [T], mut key: impl FnMut(&T) -> K) {
    sort_by(items, |a, b| key(a).cmp(&key(b)));
}

/// Sorts `items` in their own order.
pub(crate) fn sort<T: Ord>(items: &mut [T]) {
    sort_by(items, T::cmp);
}

/// The positions of `len` items in sorted order: `order[i]` is where the item that belongs at
/// `i` is now. A heapsort, with ties broken by position, which makes it stable; `O(n log n)`
/// whatever the input.
fn order(len: usize, compare: &mut dyn FnMut(usize, usize) -> Ordering) -> Vec<usize> {
    let mut less = |a: usize, b: usize| compare(a, b).then(a.cmp(&b)) == Ordering::Less;
    let mut heap: Vec<usize> = (0..len).collect();
    for node in (0..len / 2).rev() {
        sift_down(&mut heap, node, &mut less);
    }
    for end in (1..len).rev() {
        heap.swap(0, end);
        sift_down(&mut heap[..end], 0, &mut less);
    }
    heap
}

/// Moves `heap[node]` down until it is no less than its children.
fn sift_down(heap: &mut [usize], mut node: usize, less: &mut dyn FnMut(usize, usize) -> bool) {
    loop {
        let mut child = 2 * node + 1;
        if child >= heap.len() {
            return;
        }
        if child + 1 < heap.len() && less(heap[child], heap[child + 1]) {
            child += 1;
        }
        if !less(heap[node], heap[child]) {
            return;
        }
        heap.swap(node, child);
        node = child;
    }
}

/// Puts the item at `order[i]` at `i`, for every `i`, by following each cycle of the
/// permutation with swaps.
fn permute<T>(items: &mut [T], mut order: Vec<usize>) {
    for start in 0..items.len() {
        let mut at = start;
        loop {
            let from = order[at];
            order[at] = at;
            if from == start || from == at {
                break;
            }
            items.swap(at, from);
            at = from;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_as_the_standard_library_does_stably() {
        // Every arrangement of a few items with repeated keys, against the standard stable sort.
        let mut seed = 7u32;
        for len in 0..40 {
            for _ in 0..50 {
                let items: Vec<(u8, usize)> = (0..len)
                    .map(|i| {
                        seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                        ((seed >> 16) as u8 % 5, i)
                    })
                    .collect();
                let mut ours = items.clone();
                sort_by_key(&mut ours, |&(key, _)| key);
                let mut std = items.clone();
                std.sort_by_key(|&(key, _)| key);
                assert_eq!(ours, std, "{items:?}");
                let mut whole = items.clone();
                sort(&mut whole);
                std.sort();
                assert_eq!(whole, std);
            }
        }
    }

    #[test]
    fn many_items_take_n_log_n_comparisons() {
        let mut items: Vec<u32> = (0..10_000).rev().collect();
        let mut comparisons = 0u64;
        sort_by(&mut items, |a, b| {
            comparisons += 1;
            a.cmp(b)
        });
        assert!(items.windows(2).all(|w| w[0] < w[1]));
        // 2 n log2 n is about 266,000.
        assert!(comparisons < 300_000, "{comparisons} comparisons");
    }
}
