//! CSV export of the lane table (RFC 4180: comma separated, CRLF line ends, fields with a comma,
//! quote or line break quoted, quotes doubled). Columns as in the page's `#lanes` table, with the
//! same words (`undefined`, `inactive`, `lane J`) from [`crate::labels`].

use std::fmt::Write;

use crosslane_core::Step;

use crate::labels::{input_text, result_text, source_text, DisplayOptions};

/// File name of the CSV export.
pub const FILE: &str = "crosslane-lanes.csv";

/// Header row of the export.
pub const HEADER: &str = "lane,active,input,result,source,from,why";

fn field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// One row per lane of `step` (a scalar op has one result, for lane 0; its other rows have an
/// empty result).
pub fn export(step: &Step, display: DisplayOptions) -> String {
    let rows = step.inputs.len().max(step.results.len());
    let mut out = String::with_capacity(64 * (rows + 1));
    out.push_str(HEADER);
    out.push_str("\r\n");
    for lane in 0..rows {
        let input = step
            .inputs
            .get(lane)
            .map(|v| input_text(*v, display))
            .unwrap_or_default();
        let (result, source, from, why) = match step.results.get(lane) {
            Some(r) => (
                result_text(r, display),
                source_text(r),
                r.from.map(|f| f.to_string()).unwrap_or_default(),
                r.why.clone().unwrap_or_default(),
            ),
            None => Default::default(),
        };
        let _ = write!(
            out,
            "{lane},{},{},{},{},{},{}\r\n",
            step.active.contains(lane),
            field(&input),
            field(&result),
            field(&source),
            from,
            field(&why)
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crosslane_core::OpRequest;

    #[test]
    fn lane_table_csv_has_one_row_per_lane_with_table_words() {
        let step = OpRequest {
            dialect: "cuda".into(),
            op: "__shfl_xor_sync".into(),
            active: "0xfffffffe".into(),
            params: [("lane_mask".to_string(), "1".to_string())].into(),
            ..OpRequest::default()
        }
        .run()
        .unwrap();
        let csv = export(&step, DisplayOptions::default());
        let lines: Vec<&str> = csv.split("\r\n").collect();
        assert_eq!(lines[0], HEADER);
        assert_eq!(lines.len(), 32 + 2, "header, 32 lanes, trailing empty");
        assert!(
            lines[1].starts_with("0,false,0,inactive,inactive,"),
            "{}",
            lines[1]
        );
        assert!(lines[3].starts_with("2,true,2,3,lane 3,3,"), "{}", lines[3]);
        // Lane 1 reads inactive lane 0: undefined, and the reason is quoted if it has a comma.
        assert!(
            lines[2].starts_with("1,true,1,undefined,undefined,0,"),
            "{}",
            lines[2]
        );
    }

    #[test]
    fn fields_with_commas_and_quotes_are_quoted() {
        assert_eq!(field("a,b"), "\"a,b\"");
        assert_eq!(field("say \"x\""), "\"say \"\"x\"\"\"");
        assert_eq!(field("plain"), "plain");
    }
}
