#!/usr/bin/env bash
# Copies seed inputs into the (git-ignored) fuzz corpus folders: the YAML of ../shared/corpus and
# of our own tests for the YAML and compile targets, TOSCA.meta files for csar_meta, and a few
# written here for the value parsers and patterns. The corpus is data by others: it is copied
# into fuzz/corpus/ for a run, never committed.
set -euo pipefail
cd "$(dirname "$0")"
shared=../../shared/corpus
mkdir -p corpus/yaml corpus/compile corpus/csar_meta corpus/values corpus/pattern corpus/yaml_split corpus/state

# Each file under its content hash, so a rerun adds nothing twice.
seed() {
    local target=$1 file=$2
    cp "$file" "corpus/$target/seed-$(sha1sum "$file" | cut -c1-16)"
}

while IFS= read -r -d '' file; do
    # Files over 64 KiB slow every iteration; the fuzzer finds the big cases itself.
    if [ "$(stat -c %s "$file")" -le 65536 ]; then
        seed yaml "$file"
        seed compile "$file"
        # yaml_split: a first byte for the number of pieces, then the text.
        { printf '\003'; cat "$file"; } >"corpus/yaml_split/seed-$(sha1sum "$file" | cut -c1-16)"
    fi
done < <(find "$shared" ../tests/cases ../examples ../profiles -name '*.yaml' -print0)

# The day-2 states of our tests and examples.
while IFS= read -r -d '' file; do
    seed state "$file"
done < <(find ../tests/day2 ../examples/day2 -name '*.yaml' ! -name 'main.yaml' -print0)

while IFS= read -r -d '' file; do
    seed csar_meta "$file"
done < <(find "$shared" ../tests -name 'TOSCA.meta' -print0)
printf 'TOSCA-Meta-File-Version: 1.1\nCSAR-Version: 1.1\nCreated-By: x\nEntry-Definitions: main.yaml\n' >corpus/csar_meta/seed-1.1
printf 'CSAR-Version: 2.0\nCreated-By: x\nEntry-Definitions: Definitions/other.yaml\nOther-Definitions: main.yaml\n  dir/x.yaml\n\nName: a\nContent-Type: b\n' >corpus/csar_meta/seed-2.0

# values: the first byte picks the parser (0-3 scalar-unit kinds, 4 version, 5 timestamp; the
# high bit picks TOSCA 2.0 rules).
i=0
for text in '2 GB' '1.5 GiB' '10 ms' '2.4 GHz' '1 MiBps' '1e20 B' '-0.5 kb' '3 Tibps'; do
    printf '\x00%s' "$text" >"corpus/values/size-$i"
    printf '\x01%s' "$text" >"corpus/values/time-$i"
    printf '\x02%s' "$text" >"corpus/values/freq-$i"
    printf '\x83%s' "$text" >"corpus/values/bitrate-$i"
    i=$((i + 1))
done
for text in '1.0' '1.10.3.beta-4' '0.0' '18446744073709551615.1' '1.2.3.q'; do
    printf '\x04%s' "$text" >"corpus/values/version-$i"
    i=$((i + 1))
done
for text in '2001-12-14 21:59:43.10 -5' '2002-12-14' '2001-12-14t21:59:43.10-05:00' '2001-12-15T02:59:43.1Z' \
    '2016-12-31T23:59:60Z' '0001-01-01T00:00:00+14:00'; do
    printf '\x05%s' "$text" >"corpus/values/timestamp-$i"
    printf '\x85%s' "$text" >"corpus/values/timestamp2-$i"
    i=$((i + 1))
done

# pattern: the first line is the pattern, the other lines are values.
printf '[a-z]+\nabc\nab1\n' >corpus/pattern/linear
printf '(?=.*[0-9])[a-z0-9]+\nabc1\nabc\n' >corpus/pattern/look-ahead
printf '(a|aa)+\\1\naaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\n' >corpus/pattern/backreference
printf '(?x)a # note\na\n' >corpus/pattern/verbose
printf '[a-z]+(?<!x)\nabx\n' >corpus/pattern/look-behind
echo "seeds: $(for d in corpus/*; do printf '%s=%s ' "${d#corpus/}" "$(ls "$d" | wc -l)"; done)"
