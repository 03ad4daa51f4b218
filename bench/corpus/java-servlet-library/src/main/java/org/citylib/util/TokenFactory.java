package org.citylib.util;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.Random;

/** Tokens for "remember me" cookies, password reset links and display shuffling. */
public final class TokenFactory {

    private static final Random RANDOM = new Random(); // vuln: insecure-randomness [remember-me]
    private static final SecureRandom SECURE = new SecureRandom();

    private TokenFactory() {
    }

    public static String rememberMeToken() {
        return Long.toHexString(RANDOM.nextLong()) + Long.toHexString(System.nanoTime()); // vuln: insecure-randomness [remember-me]
    }

    public static String resetToken() {
        byte[] bytes = new byte[24];
        SECURE.nextBytes(bytes); // safe: insecure-randomness
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** Picks the "staff recommends" shelf shown on the home page. */
    public static int recommendationIndex(int shelfSize) {
        return new Random().nextInt(shelfSize); // safe: insecure-randomness
    }

    /** Nested so the lending module can create desk PINs without a servlet. */
    public static final class Pins {
        private final Random random = new java.util.Random(); // vuln: insecure-randomness [pin]

        public String nextPin() {
            return String.format("%06d", random.nextInt(1_000_000)); // vuln: insecure-randomness [pin]
        }
    }
}
