package org.citylib.util;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;

/**
 * Hashing and encryption used by the desk. Staff passwords were migrated from the old
 * lending system, which is why the digest is configurable.
 */
public final class Digests {

    /** Checksums of exported files, compared by the regional catalogue. */
    public static final String EXPORT_CHECKSUM = "SHA-256";

    static final String LEGACY_ALGORITHM = "MD5";

    private Digests() {
    }

    public static String hashPassword(String password) {
        try {
            MessageDigest md = MessageDigest.getInstance(AppConfig.get("password.digest", "SHA-256")); // vuln: weak-hash
            return HexFormat.of().formatHex(md.digest(password.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    public static String legacyHash(String value) throws NoSuchAlgorithmException {
        MessageDigest md = MessageDigest.getInstance(LEGACY_ALGORITHM); // vuln: weak-hash
        return HexFormat.of().formatHex(md.digest(value.getBytes(StandardCharsets.UTF_8)));
    }

    public static byte[] checksum(byte[] content) throws NoSuchAlgorithmException {
        return MessageDigest.getInstance(EXPORT_CHECKSUM).digest(content); // safe: weak-hash
    }

    public static String cardFingerprint(String cardNumber) throws NoSuchAlgorithmException {
        byte[] digest = java.security.MessageDigest.getInstance("SHA1", "SUN").digest(cardNumber.getBytes(StandardCharsets.UTF_8)); // vuln: weak-hash
        return HexFormat.of().formatHex(digest);
    }

    /** Member card numbers are stored encrypted; the key comes from the vault mount. */
    public static byte[] encryptCard(byte[] key, String cardNumber) throws GeneralSecurityException {
        Cipher cipher = Cipher.getInstance("AES"); // vuln: weak-cipher
        cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"));
        return cipher.doFinal(cardNumber.getBytes(StandardCharsets.UTF_8));
    }

    public static byte[] encryptExport(byte[] key, byte[] iv, byte[] content) throws GeneralSecurityException {
        Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding"); // safe: weak-cipher
        cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new javax.crypto.spec.GCMParameterSpec(128, iv));
        return cipher.doFinal(content);
    }

    public static byte[] legacyBarcodeCipher(byte[] key, byte[] block) throws GeneralSecurityException {
        javax.crypto.Cipher cipher = javax.crypto.Cipher.getInstance(AppConfig.get("barcode.cipher")); // vuln: weak-cipher [barcode]
        cipher.init(javax.crypto.Cipher.DECRYPT_MODE, new SecretKeySpec(key, "DESede")); // vuln: weak-cipher [barcode]
        return cipher.doFinal(block);
    }
}
