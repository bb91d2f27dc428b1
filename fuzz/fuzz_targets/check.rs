//! The invariant every target checks on the problems it gets: each span lies inside its file,
//! on character boundaries, at the line and column it claims.

use tosca_core::problem::Problem;
use tosca_core::source::SourceMap;

/// Panics (a fuzz finding) when a problem's span is not where it says.
pub fn spans(sources: &SourceMap, problems: &[Problem]) {
    for problem in problems {
        for span in std::iter::once(problem.span).chain(problem.labels.iter().map(|label| label.span)) {
            let file = sources.get(span.source).expect("a span in a known source");
            let (start, end) = (span.start as usize, span.end as usize);
            assert!(start <= end && end <= file.text.len(), "{}: span {start}..{end} outside", problem.message);
            assert!(
                file.text.is_char_boundary(start) && file.text.is_char_boundary(end),
                "span not on a char boundary"
            );
            let before = &file.text[..start];
            let line = before.matches('\n').count() + 1;
            let column = before.rsplit('\n').next().map_or(0, |text| text.chars().count()) + 1;
            assert_eq!((line, column), (span.line as usize, span.column as usize), "{}", problem.message);
        }
    }
}
