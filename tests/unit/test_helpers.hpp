#pragma once
// Shared by the unit tests: read the message of a loader's or a descriptor's error, and search it.
#include <llmcost/descriptors/validation.hpp>
#include <llmcost/io/error.hpp>

#include <doctest/doctest.h>

#include <string>
#include <string_view>

namespace llmcost::test {

/// The message of the load_error that `parse` throws (fails the test when none is thrown).
template <class F>
std::string message_of(F&& parse) {
    try {
        (void)parse();
    } catch (const io::load_error& e) {
        return e.what();
    }
    FAIL("no load_error thrown");
    return {};
}

/// The message `d.validate()` throws, or "" when `d` is valid.
template <class Descriptor>
std::string validation_message(const Descriptor& d) {
    try {
        d.validate();
    } catch (const invalid_input& e) {
        return e.what();
    }
    return {};
}

/// The message of the invalid_input that `f` throws, or "" when none is thrown.
template <class F>
std::string error_of(F&& f) {
    try {
        (void)f();
    } catch (const invalid_input& e) {
        return e.what();
    }
    return {};
}

inline bool contains(const std::string& s, std::string_view part) { return s.find(part) != std::string::npos; }

/// The columns every engine table has, in tables/engines.csv's order, up to `request_overhead_us`
/// (comma-joined, no trailing comma): the tests' own engine tables add the optional columns and
/// `source` after them.
inline std::string engine_table_columns() {
    return "name,engine,architecture,version,gemm,grouped_gemm,expert_tile_rows,attention_prefill,attention_decode,"
           "attention_fp8,mla_decode,elementwise,weights,step_overhead_us,launch_eager_us,launch_graph_us,cuda_graphs,"
           "all_reduce_latency_us,custom_all_reduce_max_KiB,all_to_all_latency_us,library_all_reduce_us,"
           "library_all_reduce_bus_GBps,max_sequences,max_batched_tokens,chunked_prefill,chunk_tokens,kv_memory_fraction,"
           "kv_block_tokens,prefill_alone,expert_parallel,attention_dp,load_balancing,routing_skew,busiest_rank,"
           "mtp_draft_tokens,request_overhead_us";
}

}  // namespace llmcost::test
