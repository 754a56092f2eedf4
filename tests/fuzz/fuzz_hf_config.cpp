// libFuzzer harness: bytes → llmcost::io::parse_hf_config (the Hugging Face config.json loader).
// A load_error or an invalid_input is the loader doing its job; anything else — a crash, another
// exception type (it escapes and aborts), a sanitizer report, a hang — is a finding.
#include <llmcost/descriptors/validation.hpp>
#include <llmcost/io/error.hpp>
#include <llmcost/io/hf_config.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        const llmcost::model m = llmcost::io::parse_hf_config(text, "fuzz/config.json");
        // What the loader returns it has validated; validating again must agree.
        m.validate();
    } catch (const llmcost::io::load_error& e) {
        if (e.path() != "fuzz/config.json") std::abort();  // every message names the input
    } catch (const llmcost::invalid_input&) {
    }
    return 0;
}
