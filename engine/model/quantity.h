#pragma once
// Kubernetes resource quantities, parsed exactly as apimachinery's resource.Quantity parses them:
//   <signedNumber><suffix>, suffix one of  n u m "" k M G T P E  |  Ki Mi Gi Ti Pi Ei  |  e<int> E<int>
// "1G" is 10^9 and "1Gi" is 2^30; "1E" is exa but "1E3" is 1000. Conversion to integers rounds up,
// as Quantity.Value() and MilliValue() do.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gantry {

__extension__ typedef unsigned __int128 uint128; // GCC/Clang builtin; exact arithmetic on quantities

class Quantity {
  public:
    // Returns nullopt and sets *error (if given) to a short reason when the text is not a quantity
    // or is outside what Gantry can represent (more than 36 significant digits, or beyond int64).
    static std::optional<Quantity> parse(std::string_view text, std::string* error = nullptr);

    bool negative() const { return negative_; }
    bool isZero() const { return mantissa_ == 0; }

    // Value scaled by 10^scale and rounded up (towards +inf). Nullopt when it does not fit in int64.
    std::optional<int64_t> scaled(int scale) const;
    std::optional<int64_t> value() const { return scaled(0); }
    std::optional<int64_t> milliValue() const { return scaled(3); }
    double toDouble() const;

  private:
    uint128 mantissa_ = 0; // all digits of the number, without the decimal point
    int exp10_ = 0;        // decimal exponent applied to the mantissa
    int exp2_ = 0;         // binary exponent (10 per Ki step)
    bool negative_ = false;
};

// Formats an integer amount back into the shortest exact Kubernetes quantity string.
// milli = true: the amount is in thousandths ("1500" -> "1500m", "2000" -> "2").
// Binary suffixes are preferred for byte-like amounts that are exact multiples of 1024.
std::string formatQuantity(int64_t amount, bool milli, bool preferBinary);

} // namespace gantry
