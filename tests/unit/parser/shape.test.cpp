// The shape/layout parser: canonical round trips, every syntactic form of
// docs/FORMATS.md 2-3, exact error messages, entry points and policies.
#include <hlomem/parser.hpp>
// The grammar itself: one test reads shapes with a policy of its own (int32_policy), which
// hlomem::parsers does not compile.
#include <hlomem/parser/shape.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <string>

using hlomem::parse_shape;
using hlomem::shape;

namespace {

/// The full error report for `text`, or "ok".
std::string shape_error_of(std::string const& text) {
    auto r = hlomem::try_parse_shape(text);
    return r ? std::string("ok") : r.error().to_string();
}

}  // namespace

TEST_CASE("canonical shape strings print back unchanged", "[parser][shape]") {
    auto text = GENERATE(as<std::string>{},
        // xla/shape_test.cc and docs/FORMATS.md 2.2
        "u32[1,2]{1,0}", "s32[3,4]{0,1}", "(opaque[], f32[], u32[1,2]{1,0}, s32[3,4]{0,1})",
        "((opaque[], f32[], u32[1,2]{1,0}, s32[3,4]{0,1}), u32[1,2]{1,0}, token[])",
        "f32[<=23,44,<=55]", "f32[?,784]", "f32[]{:T(256)}", "s32[]{:S(2)}", "()", "(())", "b(f32[8]{0})",
        "(f32[], f32[], f32[], f32[], f32[], /*index=5*/f32[], f32[])",
        // layout test vectors of xla/layout_test.cc and hlo_parser_test.cc, on shapes of their rank
        "f32[1,2,3,4]{3,2,1,0:T(42,123)(4,5)}", "f32[1,2,3,4]{3,2,1,0:T(42,123)(4,5)E(42)}",
        "f32[1,2,3,4]{3,2,1,0:T(42,123)(4,5)S(3)}", "f32[4,5]{0,1:T(2,128)}", "f32[4,5,6]{2,1,0:T(2,*,128)(2,1)}",
        "s4[4,5]{1,0:T(2,128)E(4)}", "f32[4,5]{1,0:T(2,128)S(3)}", "f32[4,5]{1,0:S(3)}",
        "f32[4,5]{1,0:T(16,128)M(1024)}", "f32[4,500]{1,0:T(2,128)S(3)SC(1:200)}", "f32[40,5]{1,0:S(3)SC(0:10)(1:4,5)}",
        "f32[4,500]{1,0:SC(1:50,200)}",
        // every attribute at once, in Layout::Print's order
        "f32[8,8]{1,0:D(D,C+~)T(8,128)(2,1)L(4)#(u32)*(u16)E(32)S(1)SC(0:4)P(s32[8]{0})M(16)}",
        // older dumps: dim level types
        "f32[8,8]{1,0:D(D,C)}", "f32[8,8,8,8]{3,2,1,0:D(D,S~,H+,C)}",
        // from the seed dumps
        "bf16[4096,3584]{1,0:T(8,128)(2,1)S(1)}", "s32[2]{0:S(4)}", "u32[]{:S(2)}",
        "(bf16[3584,4096]{1,0:T(8,128)(2,1)S(1)}, bf16[14336,4096]{1,0:T(8,128)(2,1)}, s32[2]{0:S(4)})",
        "bf16[2048]{0:T(1024)(128)(2,1)}", "bf16[]{:T(256)}", "f8e4m3fn[16,32]{1,0}", "f4e2m1fn[32]{0:E(4)}",
        "c128[2]{0}", "pred[64,512,2048]{2,1,0:T(8,128)E(32)}");
    CAPTURE(text);
    auto const s = parse_shape(text);
    CHECK(hlomem::to_string(s) == text);
    CHECK(parse_shape(hlomem::to_string(s)) == s);
}

TEST_CASE("blanks and comments between tokens are insignificant", "[parser][shape]") {
    auto [text, canonical] = GENERATE(table<std::string, std::string>({
        {"f32[ 1, 2,3, 4, 5]{0, 1, 2,3, 4 }", "f32[1,2,3,4,5]{0,1,2,3,4}"},  // AllowShapeWhitespace
        {"f32[123,456,789]{0,1,2:T(2, * , 128)}", "f32[123,456,789]{0,1,2:T(2,*,128)}"},
        {"(f32[],/*index=1*/s32[] , /* anything */ pred[])", "(f32[], s32[], pred[])"},
        {"\t( f32[3]\n {0} ,\r\n s32[] ) \n", "(f32[3]{0}, s32[])"},
        {"f32[3] // a trailing comment\n", "f32[3]"},
        {"b ( f32[8] )", "b(f32[8])"},
    }));
    CAPTURE(text);
    CHECK(hlomem::to_string(parse_shape(text)) == canonical);
}

TEST_CASE("a brace after a shape is a layout only when an integer or ':' follows", "[parser][shape]") {
    // `-> f32[] {` opens a computation body in HLO text: parse_shape_prefix stops before it.
    std::string const text = "f32[] {\n  %p = f32[] parameter(0)";
    char const* first = text.data();
    auto const s = hlomem::parse_shape_prefix(first, text.data() + text.size());
    CHECK(hlomem::to_string(s) == "f32[]");
    CHECK(std::string(first, 2) == " {");
    CHECK(shape_error_of("f32[3]{}") == "<shape>:1:7: error: expected end of input\nf32[3]{}\n      ^");
}

TEST_CASE("malformed shapes give exact errors with line, column and the offending text", "[parser][shape][errors]") {
    auto [text, report] = GENERATE(table<std::string, std::string>({
        // unknown type
        {"x32[3]", "<shape>:1:1: error: unknown primitive type 'x32'\nx32[3]\n^"},
        {"f32x[3]", "<shape>:1:1: error: unknown primitive type 'f32x'\nf32x[3]\n^"},
        {"(f32[], tuple[])", "<shape>:1:9: error: unknown primitive type 'tuple'\n(f32[], tuple[])\n        ^"},
        {"", "<shape>:1:1: error: expected a shape\n\n^"},
        {"[3]", "<shape>:1:1: error: expected a shape\n[3]\n^"},
        // missing or wrong brackets
        {"f32[8,128", "<shape>:1:10: error: expected ',' or ']'\nf32[8,128\n         ^"},
        {"f32[8,", "<shape>:1:7: error: expected a dimension size\nf32[8,\n      ^"},
        {"f32(8)", "<shape>:1:4: error: expected '['\nf32(8)\n   ^"},
        {"f32[-1]", "<shape>:1:5: error: expected a dimension size or ']'\nf32[-1]\n    ^"},
        {"(f32[], s32[] f32[])", "<shape>:1:15: error: expected ',' or ')'\n(f32[], s32[] f32[])\n              ^"},
        {"f32[8]{0", "<shape>:1:9: error: expected '}'\nf32[8]{0\n        ^"},
        {"f32[3] x", "<shape>:1:8: error: expected end of input\nf32[3] x\n       ^"},
        // bad tiles
        {"f32[8,128]{1,0:T(8,0)}", "<shape>:1:17: error: tile dimensions must be positive or '*', not 0\nf32[8,128]{1,0:T(8,0)}\n                ^"},
        {"f32[8,128]{1,0:T()}", "<shape>:1:17: error: a tile must have at least one dimension\nf32[8,128]{1,0:T()}\n                ^"},
        {"f32[8,128]{1,0:T(8,*)}", "<shape>:1:17: error: the most-minor tile dimension cannot be '*'\nf32[8,128]{1,0:T(8,*)}\n                ^"},
        {"f32[8,128]{1,0:T(8,128}", "<shape>:1:23: error: expected ',' or ')'\nf32[8,128]{1,0:T(8,128}\n                      ^"},
        {"f32[8,128]{1,0:T}", "<shape>:1:17: error: expected a tile such as (8,128)\nf32[8,128]{1,0:T}\n                ^"},
        // integers and sizes that overflow int64
        {"f32[9223372036854775808]", "<shape>:1:5: error: integer 9223372036854775808 does not fit in int64\nf32[9223372036854775808]\n    ^"},
        {"f32[4294967296,4294967296]", "<shape>:1:1: error: the element count of this array overflows int64\nf32[4294967296,4294967296]\n^"},
        {"f32[4611686018427387904]", "<shape>:1:1: error: the byte size of this array overflows int64\nf32[4611686018427387904]\n^"},
        {"f32[2305843009213693951]{0:T(1024)}", "<shape>:1:1: error: the padded byte size of this array overflows int64\nf32[2305843009213693951]{0:T(1024)}\n^"},
        {"f32[8]{0:E(99999999999999999999)}", "<shape>:1:12: error: integer 99999999999999999999 does not fit in int64\nf32[8]{0:E(99999999999999999999)}\n           ^"},
        // minor_to_major not a permutation
        {"f32[8,128]{1,1}", "<shape>:1:14: error: minor_to_major lists dimension 1 twice; it must be a permutation of 0..1\nf32[8,128]{1,1}\n             ^"},
        {"f32[8,128]{0,2}", "<shape>:1:14: error: minor_to_major entry 2 is not a dimension of a rank-2 shape\nf32[8,128]{0,2}\n             ^"},
        {"f32[2,3]{1,0,2}", "<shape>:1:9: error: layout has 3 minor_to_major entries but the shape has rank 2\nf32[2,3]{1,0,2}\n        ^"},
        // attributes out of order or repeated
        {"f32[8,128]{1,0:S(1)T(8,128)}", "<shape>:1:20: error: layout attribute T is out of order or repeated: attributes must appear in the order D T L # * E S SC P M\nf32[8,128]{1,0:S(1)T(8,128)}\n                   ^"},
        {"f32[8,128]{1,0:T(8,128)T(2,1)}", "<shape>:1:24: error: layout attribute T is out of order or repeated: attributes must appear in the order D T L # * E S SC P M\nf32[8,128]{1,0:T(8,128)T(2,1)}\n                       ^"},
        {"f32[8,128]{1,0:SC(0:4)S(1)}", "<shape>:1:23: error: layout attribute S is out of order or repeated: attributes must appear in the order D T L # * E S SC P M\nf32[8,128]{1,0:SC(0:4)S(1)}\n                      ^"},
        {"f32[8,128]{1,0:M(8)SC(0:4)}", "<shape>:1:20: error: layout attribute SC is out of order or repeated: attributes must appear in the order D T L # * E S SC P M\nf32[8,128]{1,0:M(8)SC(0:4)}\n                   ^"},
        // other invalid attributes
        {"f32[8]{0:L(0)}", "<shape>:1:12: error: tail padding alignment L(0) must be at least 1\nf32[8]{0:L(0)}\n           ^"},
        {"f32[8]{0:#(s32)}", "<shape>:1:12: error: index type #(s32) must be an unsigned integer type\nf32[8]{0:#(s32)}\n           ^"},
        {"f32[8]{0:E(-4)}", "<shape>:1:12: error: element size E(-4) must not be negative\nf32[8]{0:E(-4)}\n           ^"},
        {"f32[8]{0:SC(1:4)}", "<shape>:1:12: error: split config dimension 1 is not a physical dimension of a rank-1 shape\nf32[8]{0:SC(1:4)}\n           ^"},
        {"f32[8]{0:P(f32[8])}", "<shape>:1:10: error: a physical shape P(...) is only allowed on sparse layouts\nf32[8]{0:P(f32[8])}\n         ^"},
        {"f32[8,8]{1,0:D(D)}", "<shape>:1:14: error: D(...) lists 1 dimension level types but the shape has rank 2\nf32[8,8]{1,0:D(D)}\n             ^"},
        {"token[3]", "<shape>:1:1: error: token shapes have no dimensions\ntoken[3]\n^"},
        {"token[]{:S(1)}", "<shape>:1:8: error: token shapes cannot have a layout\ntoken[]{:S(1)}\n       ^"},
        {"b((f32[]))", "<shape>:1:3: error: a buffer shape b(...) must hold an array shape\nb((f32[]))\n  ^"},
        {"(f32[], /*index=5 f32[])", "<shape>:1:9: error: unterminated comment: '/*' without '*/'\n(f32[], /*index=5 f32[])\n        ^"},
    }));
    CAPTURE(text);
    CHECK(shape_error_of(text) == report);
}

TEST_CASE("nesting deeper than the limit is an error, not a stack overflow", "[parser][shape][errors]") {
    std::string const deep(100000, '(');
    auto r = hlomem::try_parse_shape(deep);
    REQUIRE_FALSE(r);
    CHECK(r.error().message == "nesting deeper than 256 levels");
    CHECK(r.error().column == 257);
    std::string ok(200, '(');
    ok += "f32[]";
    ok += std::string(200, ')');
    CHECK(hlomem::try_parse_shape(ok).has_value());
}

TEST_CASE("errors locate the line and column in multi-line input", "[parser][shape][errors]") {
    auto r = hlomem::try_parse_shape("(f32[],\r\n\ts32[] bad)", "dump.txt");
    REQUIRE_FALSE(r);
    auto const& e = r.error();
    CHECK(e.file == "dump.txt");
    CHECK(e.line == 2);
    CHECK(e.column == 8);
    CHECK(e.expected == "',' or ')'");
    CHECK(e.message == "expected ',' or ')'");
    CHECK(e.source_line == "\ts32[] bad)");
    // The caret keeps the tab so that it lines up under the column.
    CHECK(e.to_string() == "dump.txt:2:8: error: expected ',' or ')'\n\ts32[] bad)\n\t      ^");
}

TEST_CASE("very long lines and binary bytes are quoted safely", "[parser][shape][errors]") {
    std::string text = "(" + std::string(200000, ' ') + "x";
    auto r = hlomem::try_parse_shape(text);
    REQUIRE_FALSE(r);
    CHECK(r.error().column == 200002);
    CHECK(r.error().source_line.size() < 200);
    CHECK(r.error().source_line.substr(0, 3) == "...");
    auto binary = hlomem::try_parse_shape(std::string("f32[3]\0\x01", 8));
    REQUIRE_FALSE(binary);
    CHECK(binary.error().source_line == "f32[3]??");
    CHECK(binary.error().column == 7);
}

TEST_CASE("the throwing entry point throws parse_error with the same report", "[parser][shape][errors]") {
    try {
        (void)parse_shape("f32[8,128", "arg");
        FAIL("no exception");
    } catch (hlomem::parse_error const& e) {
        CHECK(std::string(e.what()) == "arg:1:10: error: expected ',' or ']'\nf32[8,128\n         ^");
        CHECK(e.line() == 1);
        CHECK(e.column() == 10);
        CHECK(e.expected() == "',' or ']'");
    }
    CHECK_THROWS_AS(hlomem::parse_layout("{1,0:S(1)T(8,128)}"), hlomem::parse_error);
    CHECK_THROWS_AS(hlomem::parse_shape_index("{1,}"), hlomem::parse_error);
}

TEST_CASE("layouts parse on their own", "[parser][layout]") {
    auto text = GENERATE(as<std::string>{}, "{}", "{4,5,6}", "{3,2,1,0:T(42,123)(4,5)}", "{3,2,1,0:T(42,123)(4,5)E(42)}",
                         "{3,2,1,0:T(42,123)(4,5)S(3)}", "{0,1:T(2,128)}", "{1,0:T(2,128)S(3)SC(1:200)}",
                         "{1,0:S(3)SC(0:10)(1:4,5)}", "{:S(2)}");
    CAPTURE(text);
    CHECK(hlomem::to_string(hlomem::parse_layout(text)) == text);
}

namespace {
struct int32_policy {
    using int_type = std::int32_t;
    template <class T>
    using vector_type = std::vector<T>;
    using string_type = std::string;
};
}  // namespace

TEST_CASE("policies choose the integer type; extents must fit it", "[parser][policy]") {
    auto const s = parse_shape<int32_policy>("bf16[4096,3584]{1,0:T(8,128)(2,1)}");
    CHECK(hlomem::array_size(s) == 29360128);
    CHECK(hlomem::to_string(s) == "bf16[4096,3584]{1,0:T(8,128)(2,1)}");
    auto const unbounded = parse_shape<int32_policy>("f32[?,3]");
    CHECK(unbounded.is_unbounded_dynamic_dimension(0));
    CHECK(hlomem::to_string(unbounded) == "f32[?,3]");
    auto r = hlomem::try_parse_shape<int32_policy>("f32[3000000000]");
    REQUIRE_FALSE(r);
    CHECK(r.error().message == "integer 3000000000 does not fit in the policy's int_type");
    CHECK(r.error().column == 5);
    // Combine tiles survive narrowing.
    CHECK(hlomem::to_string(parse_shape<int32_policy>("f32[2,7,8]{2,1,0:T(*,2,4)}")) == "f32[2,7,8]{2,1,0:T(*,2,4)}");
    CHECK(hlomem::array_size(parse_shape<int32_policy>("f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}")) == 49728);
}

namespace {

/// Random valid shapes, for parse(print(x)) == x.
class shape_generator {
public:
    explicit shape_generator(std::uint32_t seed) : rng_(seed) {}

    shape next(int depth = 0) {
        if (depth < 3 && chance(0.15)) {
            std::vector<shape> elements(static_cast<std::size_t>(pick(0, 7)));
            for (auto& e : elements) e = next(depth + 1);
            return shape::make_tuple(std::move(elements));
        }
        if (chance(0.03)) return shape::make_token();
        if (chance(0.03)) return shape::make_opaque();
        auto const types = hlomem::all_primitive_types();
        hlomem::primitive_type type;
        do {
            type = types[static_cast<std::size_t>(pick(0, static_cast<int>(types.size()) - 1))];
        } while (!hlomem::is_array_type(type));
        std::size_t const rank = static_cast<std::size_t>(pick(0, 4));
        shape s = shape::make_array(type, {});
        for (std::size_t i = 0; i < rank; ++i) {
            int const kind = pick(0, 9);
            if (kind == 0) {
                s.add_dimension(shape::unbounded_size, true);
            } else {
                s.add_dimension(pick(0, 300), kind == 1);
            }
        }
        if (chance(0.8)) s.set_layout(random_layout(rank));
        if (chance(0.1)) return shape::make_buffer(std::move(s));
        return s;
    }

private:
    bool chance(double p) { return std::uniform_real_distribution<double>(0, 1)(rng_) < p; }
    int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }

    hlomem::layout random_layout(std::size_t rank) {
        hlomem::layout l = hlomem::default_layout(rank);
        std::shuffle(l.minor_to_major.begin(), l.minor_to_major.end(), rng_);
        bool const sparse = rank > 0 && chance(0.05);
        if (sparse) {
            for (std::size_t i = 0; i < rank; ++i) {
                hlomem::dim_level d;
                // The first level is never dense, so that the layout is sparse and may carry P(...).
                d.type = static_cast<hlomem::dim_level_type>(pick(i == 0 ? 1 : 0, 3));
                d.unique = chance(0.7);
                d.ordered = chance(0.7);
                l.dim_level_types.push_back(d);
            }
        }
        int const levels = chance(0.5) ? pick(1, 3) : 0;
        for (int t = 0; t < levels; ++t) {
            hlomem::tile tile;
            int const n = pick(1, 3);
            for (int j = 0; j < n; ++j) {
                bool const combine = j + 1 < n && chance(0.2);
                tile.dimensions.push_back(combine ? hlomem::tile::combine_dimension : std::int64_t{1} << pick(0, 7));
            }
            l.tiles.push_back(tile);
        }
        if (chance(0.1)) l.tail_padding_alignment_in_elements = pick(2, 64);
        if (chance(0.05)) l.index_primitive_type = hlomem::primitive_type::u32;
        if (chance(0.05)) l.pointer_primitive_type = hlomem::primitive_type::u16;
        if (chance(0.2)) l.element_size_in_bits = pick(1, 64);
        if (chance(0.3)) l.memory_space = pick(1, 5);
        if (rank > 0 && chance(0.1)) {
            hlomem::split_config sc;
            sc.dimension = pick(0, static_cast<int>(rank) - 1);
            int at = 0;
            for (int k = pick(0, 3); k > 0; --k) sc.split_indices.push_back(at += pick(1, 50));
            l.split_configs.push_back(sc);
        }
        if (sparse && chance(0.5)) l.physical_shape = shape::make_array(hlomem::primitive_type::s32, {8}, hlomem::default_layout(1));
        if (chance(0.05)) l.dynamic_shape_metadata_prefix_bytes = pick(1, 4096);
        return l;
    }

    std::mt19937 rng_;
};

}  // namespace

TEST_CASE("parse(print(x)) == x for random valid shapes", "[parser][shape][roundtrip]") {
    shape_generator gen(20261121);
    for (int i = 0; i < 3000; ++i) {
        shape const s = gen.next();
        auto const problem = hlomem::validate(s);
        CAPTURE(hlomem::to_string(s), problem ? problem->message : std::string());
        REQUIRE_FALSE(problem.has_value());
        std::string const text = hlomem::to_string(s);
        CAPTURE(text);
        auto const parsed = hlomem::try_parse_shape(text);
        REQUIRE(parsed.has_value());
        CHECK(*parsed == s);
        CHECK(hlomem::to_string(*parsed) == text);
        // The layout-free text parses too, to the same shape without layouts.
        CHECK(hlomem::shape_equal().ignore_layout()(hlomem::parse_shape(hlomem::human_string(s)), s));
    }
}

TEST_CASE("the view policy parses the same shapes", "[parser][policy]") {
    auto const v = parse_shape<hlomem::view_policy>("(bf16[4096,3584]{1,0:T(8,128)(2,1)S(1)}, s32[2]{0:S(4)})");
    CHECK(hlomem::to_string(v) == "(bf16[4096,3584]{1,0:T(8,128)(2,1)S(1)}, s32[2]{0:S(4)})");
}

TEST_CASE("bytes outside ASCII are errors at their position, never a character-class assertion", "[shape][parser][fuzz]") {
    // Found by the shape fuzz target: Spirit's x3::digit asserts (and calls isdigit with a negative
    // value) on a byte above 127, which a pasted UTF-8 dump can hold after a '{'.
    auto r = hlomem::try_parse_shape("f32[0]{\x9a\xcc}");
    REQUIRE_FALSE(r);
    CHECK(r.error().line == 1);
    CHECK(r.error().column == 7);
    auto u = hlomem::try_parse_shape("f32[8]{0}\xc3\xa9");
    REQUIRE_FALSE(u);
    CHECK(u.error().column == 10);
}
