#pragma once
// Where a column sits among tables/engines.csv's columns (`io::detail::engines_csv::columns`), by its name: the tests
// of an optional column check that it is optional and where it sits against its neighbours by name, so that a column
// added later does not move what they check (the loader finds the optional columns by name).
#include <llmcost/io/engines_csv.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>

namespace llmcost::test {

/// The index of `column` in the loader's columns; FAILs where the loader has no such column.
inline std::size_t engine_column_index(std::string_view column) {
    const auto& c = io::detail::engines_csv::columns;
    const auto at = std::find(c.begin(), c.end(), column);
    if (at == c.end()) FAIL("the engines table has no column " << std::string(column));
    return static_cast<std::size_t>(at - c.begin());
}

/// Whether `column` is one of the optional columns (a table may leave it out, its figure then 0).
inline bool engine_column_optional(std::string_view column) {
    return engine_column_index(column) >= io::detail::engines_csv::required_columns.size();
}

}  // namespace llmcost::test
