// The shared types: every name reads back to its value (KV types in any case, the trace's words
// exactly), unknown names and values, and the packed-plane layout against a row-by-row count.
#include "util/types.h"

#include "util/error.h"

#include <QtTest>

#include <string>

using namespace lmscope;

class TestTypes : public QObject {
    Q_OBJECT
private slots:
    void names_read_back() {
        for (KvType t : kKvTypes) QCOMPARE(parse_kv_type(kv_type_name(t)), std::optional<KvType>(t));
        for (Phase p : {Phase::Prefill, Phase::Decode}) QCOMPARE(parse_phase(phase_name(p)), std::optional<Phase>(p));
        for (Choice c : {Choice::Prompt, Choice::Greedy, Choice::Sampled, Choice::Forced})
            QCOMPARE(parse_choice(choice_name(c)), std::optional<Choice>(c));
        for (size_t i = 0; i < kStageCount; ++i)
            QCOMPARE(parse_stage(stage_name(Stage(i))), std::optional<Stage>(Stage(i)));
        QCOMPARE(kv_type_name(KvType::Q8_0), std::string_view("q8_0"));
        QCOMPARE(choice_name(Choice::Sampled), std::string_view("sampled"));
        QCOMPARE(stage_name(Stage::TopP), std::string_view("top_p"));
        QCOMPARE(stage_name(Stage::MinP), std::string_view("min_p"));
    }

    void case_of_names() {
        QCOMPARE(parse_kv_type("Q4_0"), std::optional<KvType>(KvType::Q4_0));
        QCOMPARE(parse_kv_type("F16"), std::optional<KvType>(KvType::F16));
        QVERIFY(!parse_phase("Prefill").has_value());
        QVERIFY(!parse_choice("GREEDY").has_value());
        QVERIFY(!parse_stage("Top_K").has_value());
    }

    void unknown_names_and_values() {
        for (const char* s : {"", "q5_1", "f16 ", "q8"}) QVERIFY(!parse_kv_type(s).has_value());
        QVERIFY(!parse_stage("top_q").has_value());
        QVERIFY(!parse_choice("").has_value());
        QCOMPARE(kv_type_name(KvType(7)), std::string_view("?"));
        QCOMPARE(stage_name(Stage(kStageCount)), std::string_view("?"));
    }

    // The KV types' table gives the help text's list, and the error for an unknown name names
    // the field, the name and every accepted one.
    void kv_type_list_and_errors() {
        QCOMPARE(kv_type_list(), std::string("f16, q8_0, q4_0"));
        QCOMPARE(parse_kv_type("Q4_0", "--kv-type"), KvType::Q4_0);
        try {
            parse_kv_type("q5_1", "--kv-type");
            QFAIL("an unknown KV type was accepted");
        } catch (const UsageError& e) {
            QCOMPARE(std::string(e.what()), std::string("--kv-type: 'q5_1' is not one of f16, q8_0, q4_0"));
        }
    }

    void packed_plane_data() {
        QTest::addColumn<int>("first");
        QTest::addColumn<int>("rows");
        QTest::addColumn<qulonglong>("count");
        QTest::newRow("one row at 0") << 0 << 1 << 1ull;
        QTest::newRow("prefill 4") << 0 << 4 << 10ull;
        QTest::newRow("decode at 5") << 5 << 1 << 6ull;
        QTest::newRow("two rows at 3") << 3 << 2 << 9ull;
        QTest::newRow("no rows") << 7 << 0 << 0ull;
    }
    void packed_plane() {
        QFETCH(int, first);
        QFETCH(int, rows);
        QFETCH(qulonglong, count);
        QCOMPARE(packed_plane_count(first, rows), count);
        uint64_t before = 0;  // row r starts after rows 0 .. r-1, of first + i + 1 weights each
        for (int r = 0; r < rows; ++r) {
            QCOMPARE(packed_row_offset(first, r), before);
            before += uint64_t(first) + uint64_t(r) + 1;
        }
        QCOMPARE(before, count);
    }

    void packed_plane_limits() {  // exact at the int32 extremes, no wrap-around
        constexpr uint64_t m = INT32_MAX;
        QCOMPARE(packed_plane_count(INT32_MAX, INT32_MAX), m * (2 * m + m + 1) / 2);
        QCOMPARE(packed_plane_count(0, INT32_MAX), m * (m + 1) / 2);
    }
};

QTEST_APPLESS_MAIN(TestTypes)
#include "test_types.moc"
