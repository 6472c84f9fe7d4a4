//! Success rate and risk of an attack (spec peer-measures.md Sec 5.3; Anonymeter
//! `stats/confidence.py`): the Wilson centre and half-width of each count, the control
//! correction `(a - c) / (1 - c)` with its propagated error, clamped to `[0, 1]`.

use serde_json::{Value, json};

/// A success rate: the Wilson centre and its half-width.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rate {
    /// `rate(k)`.
    pub value: f64,
    /// `err(k)`.
    pub error: f64,
}

/// A risk with its interval, clamped to `[0, 1]`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Risk {
    /// `clamp(r)`.
    pub value: f64,
    /// `clamp(r - e)`.
    pub low: f64,
    /// `clamp(r + e)`.
    pub high: f64,
}

impl Risk {
    /// `details.ci` in the report's shape of an interval.
    pub fn ci(&self, level: f64) -> Value {
        json!({ "level": level, "low": self.low, "high": self.high, "method": "wilson" })
    }
}

/// `z = Phi^-1((1 + conf) / 2)`, as Anonymeter computes it (`0.5 * (1 + conf)`).
pub fn z_of(confidence_level: f64) -> f64 {
    probit(0.5 * (1.0 + confidence_level))
}

/// `rate(k)` and `err(k)` of `k` successes in `n` attacks (Sec 5.3; `k` may be real).
pub fn rate(k: f64, n: f64, z: f64) -> Rate {
    let z2 = z * z;
    let var = k * (n - k) / n;
    let denominator = n + z2;
    Rate { value: (k + 0.5 * z2) / denominator, error: (z / denominator) * (var + 0.25 * z2).sqrt() }
}

/// The residual rate of the attack over the control (Sec 5.3), before clamping.
pub fn residual(attack: Rate, control: Rate) -> Rate {
    let value = (attack.value - control.value) / (1.0 - control.value);
    let d_attack = 1.0 / (1.0 - control.value).abs();
    let d_control = (attack.value - 1.0) / (1.0 - control.value).powi(2);
    Rate { value, error: ((attack.error * d_attack).powi(2) + (control.error * d_control).powi(2)).sqrt() }
}

/// The clamped risk of a rate.
pub fn bind(r: Rate) -> Risk {
    let clamp = |x: f64| x.clamp(0.0, 1.0);
    Risk { value: clamp(r.value), low: clamp(r.value - r.error), high: clamp(r.value + r.error) }
}

/// The standard normal quantile `Phi^-1(p)`: Cephes' `ndtri` (S. L. Moshier, Cephes Math
/// Library 2.8), the function scipy's `norm.ppf` calls, with its coefficients and order of
/// operations, so that `z` and the risks equal Anonymeter's to the last bit.
// The coefficients as Cephes prints them (more digits than an f64 holds, the same values).
#[allow(clippy::excessive_precision)]
pub fn probit(p: f64) -> f64 {
    const EXP_NEG2: f64 = 1.353_352_832_366_126_918_9E-1;
    const S2PI: f64 = 2.506_628_274_631_000_502_42E0;
    const P0: [f64; 5] = [
        -5.996_335_010_141_078_952_67E1,
        9.800_107_541_859_996_615_36E1,
        -5.667_628_574_690_702_934_39E1,
        1.393_126_093_872_796_795_03E1,
        -1.239_165_838_673_812_580_16E0,
    ];
    const Q0: [f64; 8] = [
        1.954_488_583_381_417_598_34E0,
        4.676_279_128_988_815_384_53E0,
        8.636_024_213_908_905_905_75E1,
        -2.254_626_878_541_193_705_27E2,
        2.002_602_123_800_606_603_59E2,
        -8.203_722_561_683_333_399_12E1,
        1.590_562_251_262_116_955_15E1,
        -1.183_316_211_213_300_031_42E0,
    ];
    const P1: [f64; 9] = [
        4.055_448_923_059_624_199_23E0,
        3.152_510_945_998_938_661_54E1,
        5.716_281_922_464_212_881_62E1,
        4.408_050_738_932_008_347_00E1,
        1.468_495_619_288_580_240_14E1,
        2.186_633_068_507_902_675_39E0,
        -1.402_560_791_713_544_958_75E-1,
        -3.504_246_268_278_482_034_18E-2,
        -8.574_567_851_546_854_136_11E-4,
    ];
    const Q1: [f64; 8] = [
        1.577_998_832_564_667_497_31E1,
        4.539_076_351_288_792_105_84E1,
        4.131_720_382_546_720_304_40E1,
        1.504_253_856_929_075_034_08E1,
        2.504_649_462_083_094_159_79E0,
        -1.421_829_228_547_877_885_74E-1,
        -3.808_064_076_915_782_771_94E-2,
        -9.332_594_808_954_574_273_72E-4,
    ];
    const P2: [f64; 9] = [
        3.237_748_917_769_460_359_70E0,
        6.915_228_890_689_842_116_95E0,
        3.938_810_252_924_744_434_15E0,
        1.333_034_608_158_075_423_89E0,
        2.014_853_895_491_790_815_38E-1,
        1.237_166_348_178_200_213_58E-2,
        3.015_815_535_082_354_160_07E-4,
        2.658_069_746_867_375_508_32E-6,
        6.239_745_391_849_832_937_30E-9,
    ];
    const Q2: [f64; 8] = [
        6.024_270_393_647_420_142_55E0,
        3.679_835_638_561_608_594_03E0,
        1.377_020_994_890_813_302_71E0,
        2.162_369_935_944_966_358_90E-1,
        1.342_040_060_885_431_890_37E-2,
        3.280_144_646_821_277_391_04E-4,
        2.892_478_647_453_806_839_36E-6,
        6.790_194_080_099_812_744_25E-9,
    ];
    // Cephes' polevl (leading coefficient given) and p1evl (leading coefficient 1).
    let polevl = |x: f64, c: &[f64]| c[1..].iter().fold(c[0], |acc, &k| acc * x + k);
    let p1evl = |x: f64, c: &[f64]| c[1..].iter().fold(x + c[0], |acc, &k| acc * x + k);
    if p <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if p >= 1.0 {
        return f64::INFINITY;
    }
    let (mut y, mut negate) = (p, true);
    if y > 1.0 - EXP_NEG2 {
        y = 1.0 - y;
        negate = false;
    }
    if y > EXP_NEG2 {
        y -= 0.5;
        let y2 = y * y;
        let x = y + y * (y2 * polevl(y2, &P0) / p1evl(y2, &Q0));
        return x * S2PI;
    }
    let x = (-2.0 * libm::log(y)).sqrt();
    let x0 = x - libm::log(x) / x;
    let z = 1.0 / x;
    let x1 = if x < 8.0 { z * polevl(z, &P1) / p1evl(z, &Q1) } else { z * polevl(z, &P2) / p1evl(z, &Q2) };
    let x = x0 - x1;
    if negate { -x } else { x }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-9 * b.abs().max(1e-9)
    }

    fn risk(n: f64, k_att: f64, k_ctl: Option<f64>) -> (Rate, Option<Rate>, Risk) {
        let z = z_of(0.95);
        let a = rate(k_att, n, z);
        let c = k_ctl.map(|k| rate(k, n, z));
        (a, c, bind(c.map_or(a, |c| residual(a, c))))
    }

    #[test]
    fn z_of_95_percent() {
        // scipy's norm.ppf(0.975), bit for bit.
        assert_eq!(z_of(0.95), 1.959963984540054);
        // More of scipy's values (central region, both tails, the far tail).
        for (conf, z) in
            [(0.5, 0.6744897501960817), (0.9, 1.6448536269514722), (0.99, 2.5758293035489004), (0.999999, 4.891638475671085), (0.1, 0.12566134685507416)]
        {
            assert_eq!(z_of(conf), z, "{conf}");
        }
        assert_eq!(probit(1e-20), -9.262340089798409);
        assert_eq!(probit(0.5), 0.0);
    }

    /// Spec Sec G3, the four cases of Sec 5.3 alone.
    #[test]
    fn golden_g3_rates_and_risks() {
        let (a, c, r) = risk(500.0, 120.0, Some(60.0));
        assert!(close(a.value, 0.2419823285) && close(c.unwrap().value, 0.1228972494));
        assert!(close(r.value, 0.1357709562) && close(r.low, 0.0847550194) && close(r.high, 0.1867868930));
        let (_, _, r) = risk(10.0, 3.0, None);
        assert!(close(r.value, 0.3555065600) && close(r.low, 0.1077912674) && close(r.high, 0.6032218525));
        let (_, _, r) = risk(10.0, 10.0, Some(9.0));
        assert!(close(r.value, 0.3423802275) && r.low == 0.0 && r.high == 1.0);
        let (_, _, r) = risk(10.0, 2.0, Some(5.0));
        assert!(r.value == 0.0 && r.low == 0.0 && close(r.high, 0.4472253415));
    }
}
