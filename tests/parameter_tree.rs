//! The threshold tree of compiled programs (`aplc::loops::parameters`, `aplc dump --stage params`): which
//! parameters a program has, how the versions of a multi-versioned loop nest them, and their defaults per backend.

use aplc::driver::{parameter_tree, Backend};
use aplc::loops::parameters::{
    ThresholdNode, DEFAULT_OUTER_THRESHOLD, DEFAULT_OUTER_THRESHOLD_ON_DEVICE, DEFAULT_PARALLEL_THRESHOLD,
};
use aplc::source::SourceFile;

/// A matrix product whose size is read at run time: its i-k-j nest has two versions.
const PRODUCT_OF_RUN_TIME_SIZE: &str = "n←100 ⎕ArgInt 1\nA←0.5×(⍳n)∘.+⍳n\nB←0.25×(⍳n)∘.×⍳n\n⎕←+/,A+.×B\n";

fn tree(text: &str, backend: Backend) -> Vec<ThresholdNode> {
    parameter_tree(&SourceFile::new("tree.apl", text), backend).expect("the program compiles")
}

fn names(nodes: &[ThresholdNode]) -> Vec<String> {
    nodes.iter().map(|node| node.parameter.name.clone()).collect()
}

fn outer_nodes(nodes: &[ThresholdNode]) -> Vec<&ThresholdNode> {
    nodes
        .iter()
        .filter(|node| node.parameter.name.starts_with("outer_"))
        .collect()
}

#[test]
fn a_product_of_run_time_size_chooses_between_its_outer_and_inner_versions() {
    let nodes = tree(PRODUCT_OF_RUN_TIME_SIZE, Backend::Jit);
    let outer = outer_nodes(&nodes);
    // On the CPU the program after n runs in two versions, for sizes below 2^31 and for the others
    // (src/loops/passes/size_versions.rs): each has the product's versioned nest.
    assert_eq!(
        outer.len(),
        2,
        "one versioned nest a size version in {:?}",
        names(&nodes)
    );
    for outer in outer {
        assert_eq!(outer.parameter.default, DEFAULT_OUTER_THRESHOLD);
        // The outer version runs the rows in parallel: on the CPU, as tiles of eight rows
        // (src/loops/passes/register_tiles.rs): their starts and last columns, the tiles of each block of k, and
        // then the last rows, each loop with its own work threshold.
        let reached = names(&outer.reached);
        assert_eq!(reached.len(), 3, "{reached:?}");
        assert!(
            reached[0].starts_with("threshold_edge_tile")
                && reached[1].starts_with("threshold_tile")
                && reached[2].starts_with("threshold_rest"),
            "{reached:?}"
        );
        // The inner version runs each row's initialisation and each row update (k) in parallel.
        assert_eq!(outer.otherwise.len(), 2, "{:?}", names(&outer.otherwise));
        assert!(outer
            .otherwise
            .iter()
            .all(|node| node.parameter.name.starts_with("threshold_")
                && node.parameter.default == DEFAULT_PARALLEL_THRESHOLD));
    }
}

#[test]
fn the_opencl_backend_has_its_own_outer_default_and_offload_choices() {
    let nodes = tree(PRODUCT_OF_RUN_TIME_SIZE, Backend::OpenCl);
    let outer = outer_nodes(&nodes);
    assert_eq!(outer.len(), 1);
    assert_eq!(outer[0].parameter.default, DEFAULT_OUTER_THRESHOLD_ON_DEVICE);
    // Under each version, a construct of run-time work chooses the device first, then the host's threads.
    let offload = &outer[0].reached[0];
    assert!(
        offload.parameter.name.starts_with("offload_"),
        "{:?}",
        offload.parameter
    );
    assert!(offload.reached.is_empty());
    assert_eq!(
        names(&offload.otherwise),
        vec![offload.parameter.name.replace("offload_", "threshold_")]
    );
}

#[test]
fn a_product_of_compile_time_size_has_no_versions() {
    let nodes = tree("A←0.5×(⍳100)∘.+⍳100\n⎕←+/,A+.×A\n", Backend::Jit);
    assert!(outer_nodes(&nodes).is_empty(), "{:?}", names(&nodes));
}

#[test]
fn a_plain_map_nest_and_rows_of_known_short_width_are_not_versioned() {
    // The outer version already covers every element of a map nest; doubling the code would buy nothing. Rows of 26
    // elements are one reduction chunk each, never worth running in parallel: their loop has one version too.
    let nodes = tree(
        "n←100 ⎕ArgInt 1\nm←(⍳n)∘.+⍳n\n⎕←+/,1⌽m\n⎕←+/+/0.5×(n,26)⍴m\n",
        Backend::Jit,
    );
    assert!(outer_nodes(&nodes).is_empty(), "{:?}", names(&nodes));
    assert!(!nodes.is_empty());
}

#[test]
fn rows_of_a_reduction_of_run_time_width_get_both_versions() {
    // +/ of a double matrix of run-time size: the rows in parallel, or each row's chunks in parallel (a few long
    // rows), under one outer_ choice whose two versions both hold thresholds.
    let nodes = tree("n←100 ⎕ArgInt 1\nm←(⍳n)∘.+⍳n\n⎕←+/+/0.5×m\n", Backend::Jit);
    let outer = outer_nodes(&nodes);
    // One choice in each of the two size versions (src/loops/passes/size_versions.rs).
    assert_eq!(outer.len(), 2, "{:?}", names(&nodes));
    for outer in outer {
        assert!(!outer.reached.is_empty() && !outer.otherwise.is_empty(), "{outer:?}");
    }
}

#[test]
fn the_dump_prints_each_version_s_parameters_under_its_choice() {
    let text = aplc::driver::dump(
        &SourceFile::new("tree.apl", PRODUCT_OF_RUN_TIME_SIZE),
        aplc::driver::Stage::Params,
    )
    .expect("the program compiles");
    let outer_line = text
        .lines()
        .position(|line| line.starts_with("outer_"))
        .expect("an outer line");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[outer_line + 1], "  >=:");
    assert!(lines[outer_line + 2].starts_with("    threshold_edge_tile"));
    assert!(lines[outer_line + 3].starts_with("    threshold_tile"));
    assert!(lines[outer_line + 4].starts_with("    threshold_rest"));
    assert_eq!(lines[outer_line + 5], "  <:");
    assert!(text.contains("# the OpenCL backend's host code"));
    assert!(text.contains(&format!("= {DEFAULT_OUTER_THRESHOLD_ON_DEVICE}  #")));
}
