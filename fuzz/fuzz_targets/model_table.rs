//! Arbitrary UTF-8 into the move model's table reader: never a panic, and a table that parses
//! writes out as text that parses back to the same model.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tengen::engine::model::Model;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(m) = Model::parse(text) {
        let again = Model::parse(&m.to_text()).expect("a written table parses");
        assert_eq!(again.to_text(), m.to_text());
    }
});
