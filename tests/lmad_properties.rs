//! Model-based property tests: every LMAD operation on small concrete LMADs (sizes 0..=5, strides -6..=6, rank up to
//! 3) against a brute-force model that enumerates every index and computes `τ + Σ y_i·δ_i` itself. Each operation's
//! model is written as an index mapping into the original array, never through the operation under test.

use aplc::mem::{disjoint, Dim, DimSlice, Lmad, Term};
use proptest::prelude::*;
use std::collections::BTreeSet;

/// A concrete LMAD as plain integers: the model's view.
#[derive(Clone, Debug, PartialEq)]
struct Model {
    offset: i64,
    dims: Vec<(i64, i64)>,
}

impl Model {
    fn to_lmad(&self) -> Lmad {
        Lmad::new(
            self.offset,
            self.dims.iter().map(|&(size, stride)| Dim::new(size, stride)).collect(),
        )
    }

    fn from_lmad(lmad: &Lmad) -> Model {
        let constant = |term: &Term| term.as_constant().expect("a concrete LMAD stays concrete");
        Model {
            offset: constant(&lmad.offset),
            dims: lmad
                .dims
                .iter()
                .map(|dim| (constant(&dim.size), constant(&dim.stride)))
                .collect(),
        }
    }

    fn shape(&self) -> Vec<i64> {
        self.dims.iter().map(|&(size, _)| size).collect()
    }

    fn address(&self, index: &[i64]) -> i64 {
        self.offset
            + index
                .iter()
                .zip(&self.dims)
                .map(|(position, (_, stride))| position * stride)
                .sum::<i64>()
    }

    /// Every address, indices in row-major order.
    fn addresses(&self) -> Vec<i64> {
        all_indices(&self.shape())
            .iter()
            .map(|index| self.address(index))
            .collect()
    }

    fn address_set(&self) -> BTreeSet<i64> {
        self.addresses().into_iter().collect()
    }
}

/// Every index of a shape in row-major order (one empty index for rank 0, none if a size is 0).
fn all_indices(shape: &[i64]) -> Vec<Vec<i64>> {
    shape.iter().fold(vec![Vec::new()], |prefixes, &size| {
        prefixes
            .iter()
            .flat_map(|prefix| {
                (0..size).map(move |position| {
                    let mut index = prefix.clone();
                    index.push(position);
                    index
                })
            })
            .collect()
    })
}

/// The addresses of the result of an operation, listed by the model: for every index of `result_shape` in
/// row-major order, the address in `original` of the index `source_index` maps it to.
fn expected_addresses(original: &Model, result_shape: &[i64], source_index: impl Fn(&[i64]) -> Vec<i64>) -> Vec<i64> {
    all_indices(result_shape)
        .iter()
        .map(|index| original.address(&source_index(index)))
        .collect()
}

fn model_strategy() -> impl Strategy<Value = Model> {
    (-10i64..=20, prop::collection::vec((0i64..=5, -6i64..=6), 0..=3)).prop_map(|(offset, dims)| Model { offset, dims })
}

fn non_empty_model_strategy() -> impl Strategy<Value = Model> {
    (-10i64..=20, prop::collection::vec((1i64..=5, -6i64..=6), 1..=3)).prop_map(|(offset, dims)| Model { offset, dims })
}

fn constants(values: &[i64]) -> Vec<Term> {
    values.iter().map(|&value| Term::constant(value)).collect()
}

/// A valid strided range of a dimension of `size` elements, from three random seeds.
fn valid_range(size: i64, start_seed: i64, step: i64, count_seed: i64) -> (i64, i64, i64) {
    if size == 0 {
        return (0, 0, step);
    }
    let start = start_seed % size;
    let most = match step {
        0 => 4,
        positive if positive > 0 => (size - 1 - start) / positive + 1,
        negative => start / -negative + 1,
    };
    (start, count_seed % (most + 1), step)
}

/// Every shape of rank 1..=3 with the given element count (entries up to 5 when the count is 0).
fn shapes_with_count(count: i64) -> Vec<Vec<i64>> {
    let largest = count.max(5);
    let mut shapes = Vec::new();
    for first in 0..=largest {
        if first == count {
            shapes.push(vec![first]);
        }
        for second in 0..=largest {
            if first * second == count {
                shapes.push(vec![first, second]);
            }
            for third in 0..=largest.min(5) {
                if first * second * third == count {
                    shapes.push(vec![first, second, third]);
                }
            }
        }
    }
    shapes
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn index_is_the_offset_plus_index_times_strides(model in model_strategy()) {
        let lmad = model.to_lmad();
        for index in all_indices(&model.shape()) {
            prop_assert_eq!(lmad.index(&constants(&index)), Ok(Term::constant(model.address(&index))));
        }
    }

    #[test]
    fn row_major_lists_consecutive_addresses(offset in -10i64..=20, shape in prop::collection::vec(0i64..=5, 0..=3)) {
        let lmad = Lmad::row_major_at(Term::constant(offset), &constants(&shape));
        let count: i64 = shape.iter().product();
        prop_assert_eq!(Model::from_lmad(&lmad).addresses(), (offset..offset + count).collect::<Vec<i64>>());
        prop_assert!(lmad.is_row_major_contiguous());
    }

    #[test]
    fn slice_selects_strided_ranges(
        model in model_strategy(),
        seeds in prop::collection::vec((0i64..100, -2i64..=2, 0i64..100), 3),
    ) {
        let ranges: Vec<(i64, i64, i64)> = model
            .dims
            .iter()
            .zip(&seeds)
            .map(|(&(size, _), &(start, step, count))| valid_range(size, start, step, count))
            .collect();
        let slices: Vec<DimSlice> =
            ranges.iter().map(|&(start, count, step)| DimSlice::new(start, count, step)).collect();
        let result = Model::from_lmad(&model.to_lmad().slice(&slices).unwrap());
        let result_shape: Vec<i64> = ranges.iter().map(|&(_, count, _)| count).collect();
        let expected = expected_addresses(&model, &result_shape, |index| {
            index.iter().zip(&ranges).map(|(position, (start, _, step))| start + position * step).collect()
        });
        prop_assert_eq!(result.shape(), result_shape);
        prop_assert_eq!(result.addresses(), expected);
    }

    #[test]
    fn slice_past_the_end_is_an_error(
        model in non_empty_model_strategy(),
        dimension_seed in 0usize..3,
        extra in 1i64..3,
    ) {
        let dimension = dimension_seed % model.dims.len();
        let size = model.dims[dimension].0;
        let range = DimSlice::new(0, size + extra, 1);
        prop_assert!(model.to_lmad().slice_dimension(dimension, range).is_err());
    }

    #[test]
    fn fix_indexes_one_dimension(
        model in non_empty_model_strategy(),
        dimension_seed in 0usize..3,
        index_seed in 0i64..5,
    ) {
        let dimension = dimension_seed % model.dims.len();
        let fixed = index_seed % model.dims[dimension].0;
        let result = Model::from_lmad(&model.to_lmad().fix(dimension, &Term::constant(fixed)).unwrap());
        let mut result_shape = model.shape();
        result_shape.remove(dimension);
        let expected = expected_addresses(&model, &result_shape, |index| {
            let mut source = index.to_vec();
            source.insert(dimension, fixed);
            source
        });
        prop_assert_eq!(result.addresses(), expected);
    }

    #[test]
    fn permute_reorders_the_index(
        (model, permutation) in model_strategy().prop_flat_map(|model| {
            let rank = model.dims.len();
            (Just(model), Just((0..rank).collect::<Vec<usize>>()).prop_shuffle())
        }),
    ) {
        let result = Model::from_lmad(&model.to_lmad().permute(&permutation).unwrap());
        let result_shape: Vec<i64> = permutation.iter().map(|&source| model.dims[source].0).collect();
        let expected = expected_addresses(&model, &result_shape, |index| {
            let mut source = vec![0; index.len()];
            for (position, &from) in permutation.iter().enumerate() {
                source[from] = index[position];
            }
            source
        });
        prop_assert_eq!(result.addresses(), expected);
    }

    #[test]
    fn transpose_reverses_the_index(model in model_strategy()) {
        let result = Model::from_lmad(&model.to_lmad().transpose());
        let mut result_shape = model.shape();
        result_shape.reverse();
        let expected = expected_addresses(&model, &result_shape, |index| index.iter().rev().copied().collect());
        prop_assert_eq!(result.addresses(), expected);
    }

    #[test]
    fn reverse_counts_one_dimension_backwards(model in non_empty_model_strategy(), dimension_seed in 0usize..3) {
        let dimension = dimension_seed % model.dims.len();
        let result = Model::from_lmad(&model.to_lmad().reverse(dimension).unwrap());
        let size = model.dims[dimension].0;
        let expected = expected_addresses(&model, &model.shape(), |index| {
            let mut source = index.to_vec();
            source[dimension] = size - 1 - index[dimension];
            source
        });
        prop_assert_eq!(result.addresses(), expected);
    }

    #[test]
    fn take_and_drop_select_rows(model in non_empty_model_strategy(), count_seed in 0i64..6) {
        let rows = model.dims[0].0;
        let count = count_seed % (rows + 1);
        let lmad = model.to_lmad();
        let taken = Model::from_lmad(&lmad.take(&Term::constant(count)).unwrap());
        let dropped = Model::from_lmad(&lmad.drop(&Term::constant(count)).unwrap());
        let mut taken_shape = model.shape();
        taken_shape[0] = count;
        let mut dropped_shape = model.shape();
        dropped_shape[0] = rows - count;
        prop_assert_eq!(taken.addresses(), expected_addresses(&model, &taken_shape, |index| index.to_vec()));
        let expected_dropped = expected_addresses(&model, &dropped_shape, |index| {
            let mut source = index.to_vec();
            source[0] += count;
            source
        });
        prop_assert_eq!(dropped.addresses(), expected_dropped);
        // From the end: the last `count` rows, and all but the last `count`.
        let taken_last = Model::from_lmad(&lmad.take_last(&Term::constant(count)).unwrap());
        let dropped_last = Model::from_lmad(&lmad.drop_last(&Term::constant(count)).unwrap());
        let expected_taken_last = expected_addresses(&model, &taken_shape, |index| {
            let mut source = index.to_vec();
            source[0] += rows - count;
            source
        });
        prop_assert_eq!(taken_last.addresses(), expected_taken_last);
        prop_assert_eq!(dropped_last.addresses(), expected_addresses(&model, &dropped_shape, |index| index.to_vec()));
    }

    #[test]
    fn expand_lists_the_accesses_of_every_iteration(
        model in model_strategy(),
        step in -6i64..=6,
        (lower, count) in (-3i64..=3, 0i64..=4),
    ) {
        // The accesses `offset + step·i + L` for i in lower..lower+count, one iteration after the other.
        let iteration = Lmad::new(
            Term::constant(model.offset) + Term::variable("i").scale(step),
            model.to_lmad().dims,
        );
        let expanded = iteration.expand("i", &Term::constant(lower), &Term::constant(count)).unwrap();
        let expected: Vec<i64> = (lower..lower + count)
            .flat_map(|i| Model { offset: model.offset + step * i, dims: model.dims.clone() }.addresses())
            .collect();
        prop_assert_eq!(Model::from_lmad(&expanded).addresses(), expected);
    }

    #[test]
    fn contiguity_means_consecutive_addresses(model in model_strategy()) {
        let addresses = model.addresses();
        let consecutive = addresses.is_empty()
            || addresses.iter().enumerate().all(|(position, address)| *address == model.offset + position as i64);
        prop_assert_eq!(model.to_lmad().is_row_major_contiguous(), consecutive);
    }

    #[test]
    fn reshape_keeps_the_row_major_address_list(model in model_strategy(), shape_seed in 0usize..1000) {
        let count: i64 = model.shape().iter().product();
        let shapes = shapes_with_count(count);
        let new_shape = &shapes[shape_seed % shapes.len()];
        let lmad = model.to_lmad();
        match lmad.reshape(&constants(new_shape)) {
            Some(result) => {
                let result = Model::from_lmad(&result);
                prop_assert_eq!(&result.shape(), new_shape);
                prop_assert_eq!(result.addresses(), model.addresses());
            }
            None => prop_assert!(!lmad.is_row_major_contiguous()),
        }
    }

    #[test]
    fn reshape_to_another_count_needs_a_copy(model in model_strategy(), extra in 1i64..4) {
        let count: i64 = model.shape().iter().product();
        prop_assert_eq!(model.to_lmad().reshape(&[Term::constant(count + extra)]), None);
    }

    #[test]
    fn normalize_preserves_the_addresses(model in model_strategy()) {
        let normalized = Model::from_lmad(&model.to_lmad().normalize().expect("concrete LMADs always normalise"));
        let mut before = model.addresses();
        let mut after = normalized.addresses();
        before.sort_unstable();
        after.sort_unstable();
        prop_assert_eq!(after, before);
        prop_assert!(normalized.dims.iter().all(|&(_, stride)| stride >= 0));
        prop_assert!(normalized.dims.windows(2).all(|pair| pair[0].1 >= pair[1].1));
    }

    #[test]
    fn disjoint_never_claims_disjointness_of_overlapping_sets(first in model_strategy(), second in model_strategy()) {
        if disjoint(&first.to_lmad(), &second.to_lmad()) {
            let common: Vec<i64> = first.address_set().intersection(&second.address_set()).copied().collect();
            prop_assert!(common.is_empty(), "{} and {} share {:?}", first.to_lmad(), second.to_lmad(), common);
        }
    }

    #[test]
    fn disjoint_is_sound_for_shifted_copies(model in model_strategy(), shift in -30i64..=30) {
        // A copy shifted by a few addresses is the hard case: same strides, interleaved or nearby points.
        let shifted = Model { offset: model.offset + shift, dims: model.dims.clone() };
        if disjoint(&model.to_lmad(), &shifted.to_lmad()) {
            prop_assert!(model.address_set().is_disjoint(&shifted.address_set()));
        }
    }

    #[test]
    fn disjoint_proves_separated_vectors(
        (first_offset, first_size, first_stride) in (-10i64..=20, 1i64..=5, 1i64..=6),
        gap in 1i64..=10,
        (second_size, second_stride) in (1i64..=5, -6i64..=6),
    ) {
        // Two vectors whose address ranges are apart (the second reversed when its stride is negative).
        let first = Model { offset: first_offset, dims: vec![(first_size, first_stride)] };
        let lowest_second = first_offset + (first_size - 1) * first_stride + gap;
        let second_offset = lowest_second + if second_stride < 0 { (second_size - 1) * -second_stride } else { 0 };
        let second = Model { offset: second_offset, dims: vec![(second_size, second_stride)] };
        prop_assert!(first.address_set().is_disjoint(&second.address_set()));
        prop_assert!(disjoint(&first.to_lmad(), &second.to_lmad()));
    }

    #[test]
    fn disjoint_proves_residue_classes_apart(
        offset in -10i64..=20,
        residue in 1i64..=5,
        sizes in prop::collection::vec(1i64..=5, 1..=3),
        stride_factors in prop::collection::vec(-3i64..=3, 3),
    ) {
        // Every stride a multiple of 6 and offsets that differ by 1..=5: the gcd test separates them.
        let dims: Vec<(i64, i64)> =
            sizes.iter().zip(&stride_factors).map(|(&size, &factor)| (size, 6 * factor)).collect();
        let first = Model { offset, dims: dims.clone() };
        let second = Model { offset: offset + residue, dims };
        prop_assert!(disjoint(&first.to_lmad(), &second.to_lmad()));
    }

    #[test]
    fn disjoint_proves_separated_boxes_of_a_row_major_array(
        shape in prop::collection::vec(1i64..=5, 1..=3),
        axis_seed in 0usize..3,
        box_seeds in prop::collection::vec((0i64..100, 0i64..100, 0i64..100, 0i64..100), 3),
        cut_seed in 0i64..100,
    ) {
        // Two boxes of a row-major array that lie on different sides of a cut along one axis.
        let axis = axis_seed % shape.len();
        prop_assume!(shape[axis] >= 2);
        let cut = 1 + cut_seed % (shape[axis] - 1);
        let array = Lmad::row_major(&constants(&shape));
        let mut first_ranges = Vec::new();
        let mut second_ranges = Vec::new();
        for (dimension, (&size, &(a, b, c, d))) in shape.iter().zip(&box_seeds).enumerate() {
            let (low, high) = if dimension == axis { ((0, cut), (cut, size)) } else { ((0, size), (0, size)) };
            let within = |(from, to): (i64, i64), start_seed: i64, count_seed: i64| {
                let start = from + start_seed % (to - from);
                let count = 1 + count_seed % (to - start);
                DimSlice::new(start, count, 1)
            };
            first_ranges.push(within(low, a, b));
            second_ranges.push(within(high, c, d));
        }
        let first = array.slice(&first_ranges).unwrap();
        let second = array.slice(&second_ranges).unwrap();
        prop_assert!(Model::from_lmad(&first).address_set().is_disjoint(&Model::from_lmad(&second).address_set()));
        prop_assert!(disjoint(&first, &second), "{} vs {}", first, second);
        prop_assert!(disjoint(&second.transpose(), &first.reverse(0).unwrap()), "{} vs {}", second, first);
    }
}
