// Parses the TPU seed dump's bf16 value shape and checks its padded size (29360128 bytes, as the
// dump's value line states); exits 0 when hlomem works from this consumer.
#include <hlomem/hlomem.hpp>

#include <iostream>

int main() {
    auto const s = hlomem::parse_shape("bf16[4096,3584]{1,0:T(8,128)(2,1)}");
    std::int64_t const padded = hlomem::array_size(s);
    std::cout << hlomem::to_string(s) << ": " << padded << " bytes\n";
    return padded == 29360128 ? 0 : 1;
}
