// llmcost::io::parse_csv: RFC 4180 fields, header lookup, and errors that name file, line, column.
#include <llmcost/io/csv.hpp>

#include <doctest/doctest.h>

#include "test_helpers.hpp"

#include <string>
#include <string_view>

using namespace llmcost;

namespace {
using test::contains;
using test::message_of;
}  // namespace

TEST_CASE("csv: quoted fields, doubled quotes, CRLF and header lookup") {
    const io::csv_table t = io::parse_csv(
        "name,source,value\r\n"
        "a,\"x, y\",1.5\r\n"
        "\"b\",\"say \"\"hi\"\"\",\r\n"
        "c,\"two\nlines\",3\n",
        "t.csv");
    REQUIRE(t.size() == 3);
    CHECK(t.header() == std::vector<std::string>{"name", "source", "value"});
    CHECK(t.field(0, "source") == "x, y");
    CHECK(t.field(1, "name") == "b");
    CHECK(t.field(1, "source") == "say \"hi\"");
    CHECK(t.field(2, "source") == "two\nlines");
    CHECK(t.rows()[2].line == 4);
    CHECK(t.number(0, "value") == 1.5);
    CHECK_FALSE(t.number(1, "value").has_value());  // empty cell
    CHECK(t.find_column("nope") == std::nullopt);
}

TEST_CASE("csv: a file on disk, CRLF and quoted commas") {
    const io::csv_table t = io::load_csv(std::string(LLMCOST_FIXTURES_DIR) + "/csv/sample.csv");
    REQUIRE(t.size() == 2);
    CHECK(t.field(1, "source") == "MLA: latent, \"compressed\"");
    CHECK(t.number(1, "value") == 671.0);
}

TEST_CASE("csv: bad inputs name the file, the line and the column") {
    SUBCASE("unterminated quote points at the opening quote") {
        const std::string msg = message_of([] { return io::parse_csv("a,b\n1,\"oops\n2,3\n", "bad.csv"); });
        CHECK(contains(msg, "llmcost: bad.csv:2:3: unterminated quoted field"));
    }
    SUBCASE("wrong field count") {
        const std::string msg = message_of([] { return io::parse_csv("a,b,c\n1,2,3\n4,5\n", "bad.csv"); });
        CHECK(contains(msg, "bad.csv:3:1: wrong field count: expected 3 fields (as in the header), got 2"));
    }
    SUBCASE("text after a closing quote") {
        const std::string msg = message_of([] { return io::parse_csv("a,b\n\"1\"x,2\n", "bad.csv"); });
        CHECK(contains(msg, "bad.csv:2:4: unexpected character 'x' after a closing quote"));
    }
    SUBCASE("a quote inside an unquoted field") {
        const std::string msg = message_of([] { return io::parse_csv("a,b\n1,2\"3\n", "bad.csv"); });
        CHECK(contains(msg, "bad.csv:2:4: quote inside an unquoted field"));
    }
    SUBCASE("empty file") {
        CHECK(contains(message_of([] { return io::parse_csv("", "empty.csv"); }), "empty.csv: empty file"));
    }
    SUBCASE("unknown column and a non-number") {
        const io::csv_table t = io::parse_csv("a,b\n1,x\n", "t.csv");
        CHECK(contains(message_of([&] { return t.column("c"); }), "t.csv:1: key \"c\": no such column"));
        CHECK(contains(message_of([&] { return t.number(0, "b"); }), "t.csv:2:2: key \"b\" = \"x\": expected a number"));
    }
    SUBCASE("missing file") {
        CHECK(contains(message_of([] { return io::load_csv("/nonexistent/t.csv"); }),
                       "/nonexistent/t.csv: cannot open file: no such file"));
    }
}
