#!/usr/bin/env python3
"""Variants of a reduction kernel, made from its dump (`aplc dump --stage opencl prog.apl > DUMP`), to find out where
the kernel's time goes: `kernel_variants.py DUMP OUT` writes OUT/<variant>.cl for each, which a --gpu executable of the
same program builds instead of its own kernels when APLC_OPENCL_SOURCE names it (bench/gpu/run.sh times them):
  generated           the kernel as aplc writes it;
  int-element         every integer of the element loops in 32 bits (also where aplc keeps 64: wrong for large
                      values, a measure only);
  no-checks           without the checks of APL errors (wrong for bad input: a measure only);
  int-no-checks       both;
  deferred-sum-check  the finite check of a lane's running sum once after its last element, not after each (a sum
                      that is not finite stays so: the same errors);
  int-deferred        int-element and deferred-sum-check.
The element loops are the lines from the first `for (int aplc_k = ` to the last `aplc_element_done: ;` (one loop, or
the 32-bit and the 64-bit versions of it)."""
import re
import sys


def kernel_lines(dump_text):
    """The dump's OpenCL C: without the counts line at the top and the host schedule at the end."""
    source = dump_text[: dump_text.index("// host schedule")]
    return [line for line in source.splitlines() if not line.startswith("// opencl:")]


def element_loop_range(lines):
    start = next(i for i, line in enumerate(lines) if "for (int aplc_k = " in line)
    end = max(i for i, line in enumerate(lines) if "aplc_element_done: ;" in line)
    return start, end


def element_in_int(lines, start, end):
    result = []
    for i, line in enumerate(lines):
        if start < i < end:
            line = line.replace("long v_", "int v_").replace("(ulong)", "(uint)").replace("(long)", "(int)")
            line = re.sub(r"\b(\d+)L\b", r"\1", line)
        result.append(line)
    return result


def no_checks(lines, start, end):
    return [line for line in lines if "APLC_FAIL_TO(" not in line]


def deferred_sum_check(lines, start, end):
    """Drops the running sum's check in the element loops (the check whose code the combination's check also has)
    and checks the lane's sum once before it goes to its slot."""
    combination = next(line for line in lines if "aplc_combine_done);" in line)
    code = re.search(r"APLC_FAIL_TO\((\d+),", combination).group(1)
    result = []
    for i, line in enumerate(lines):
        if start < i < end and f"APLC_FAIL_TO({code}," in line:
            continue
        if line.strip() == "aplc_parts[aplc_lane] = aplc_part;":
            line = line.replace(
                "aplc_parts[aplc_lane] = aplc_part;",
                f"if (!isfinite(aplc_part)) atomic_cmpxchg(aplc_error, 0, {code}); aplc_parts[aplc_lane] = aplc_part;",
            )
        result.append(line)
    return result


def main():
    dump, out = sys.argv[1], sys.argv[2]
    with open(dump) as file:
        lines = kernel_lines(file.read())
    start, end = element_loop_range(lines)
    variants = {
        "generated": lines,
        "int-element": element_in_int(lines, start, end),
        "no-checks": no_checks(lines, start, end),
        "int-no-checks": no_checks(element_in_int(lines, start, end), start, end),
        "deferred-sum-check": deferred_sum_check(lines, start, end),
        "int-deferred": deferred_sum_check(element_in_int(lines, start, end), start, end),
    }
    for name, variant in variants.items():
        with open(f"{out}/{name}.cl", "w") as file:
            file.write("\n".join(variant) + "\n")
        print(name)


if __name__ == "__main__":
    main()
