package com.northwind.warehouse.config;

import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.config.annotation.CorsRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

@Configuration
public class WebConfig implements WebMvcConfigurer {

    @Override
    public void addCorsMappings(CorsRegistry registry) {
        registry.addMapping("/api/**").allowedOriginPatterns("*").allowCredentials(true); // vuln: cors-misconfiguration
        registry.addMapping("/public/**").allowedOrigins("https://tablets.northwind.example").allowedMethods("GET"); // safe: cors-misconfiguration
    }
}
