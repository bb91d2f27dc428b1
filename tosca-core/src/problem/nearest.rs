//! "Did you mean": the known name nearest to a misspelt one. A leaf every layer that reports an
//! unknown name uses (keynames, types, templates, inputs, paths).

/// The candidate nearest to `word` by edit similarity, if any is close enough to be a likely typo.
pub fn nearest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    candidates
        .into_iter()
        .map(|candidate| (strsim::jaro_winkler(word, candidate), candidate))
        .filter(|(score, _)| *score > 0.8)
        // Ties go to the alphabetically first candidate, so the answer never depends on the
        // order candidates come in (some come from hash maps).
        .max_by(|a, b| a.0.total_cmp(&b.0).then_with(|| b.1.cmp(a.1)))
        .map(|(_, candidate)| candidate)
}
